import { ExitCode } from '../../exit-codes.js';
import type { CommandRegistrar } from '../../main.js';
import { addPolicyOptions, policyFromOptions, PolicyOptionError, type PolicyCliOptions } from '../../policy/policy-options.js';
import { addProxyOptions, expandHome, proxyConfig, ProxyOptionError, type McpProxyCliOptions } from './options.js';

const HELP_AFTER = `
Only tools/call is gated: a call the policy denies or holds is answered with an MCP tool error
(isError: true) naming the rule and key, and never reaches the server. Everything else is relayed
unchanged. The proxy never sees the user's words: a value found in no earlier tool result and no
schema default is labelled no_evidence; --on-no-evidence decides what happens to one on a
denylisted key (default log). Under ask, a client that can show its user a form (MCP
elicitation) is sent the question: the answer counts as the user's words and the call is gated
again; without an answer in --ask-timeout, or from other clients, the question goes to the model.

Spans: OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set, else files in
--traces-dir for \`argspan analyze\`.

Exit codes: 0 the client closed the connection; 2 bad usage or policy, or the server could not be
started; 3 internal error; 4 the server exited while the client was connected.

Example (an mcpServers entry runs the same command):
  argspan mcp-proxy -- npx -y @modelcontextprotocol/server-filesystem ~/projects
`;

export const registerMcpProxy: CommandRegistrar = (program, io, setExit) => {
  const command = program
    .command('mcp-proxy')
    .usage('[options] -- <server command> [args...]')
    .description(
      'Run an MCP server behind argspan: a stdio (or Streamable HTTP) MCP server that starts the real server and relays every message, classifying, gating and tracing each tools/call.',
    )
    .argument('[server...]', 'the MCP server to start, after --');
  addPolicyOptions(addProxyOptions(command))
    .addHelpText('after', HELP_AFTER)
    .action(async (server: string[], opts: PolicyCliOptions & McpProxyCliOptions) => {
      let config;
      try {
        const policyFile = opts.policy === undefined ? {} : { policy: expandHome(opts.policy) };
        config = proxyConfig(server, opts, policyFromOptions({ ...opts, ...policyFile }), process.env);
      } catch (e) {
        if (!(e instanceof PolicyOptionError) && !(e instanceof ProxyOptionError)) throw e;
        io.stderr.write(`argspan mcp-proxy: ${e.message}\n`);
        setExit(ExitCode.INPUT_ERROR);
        return;
      }
      // Loaded here: the relay's dependencies (OpenTelemetry SDK, MCP transports) are not the other commands' cost.
      const { runMcpProxy } = await import('./run.js');
      setExit(await runMcpProxy(config, io));
    });
};
