// Type-checked (never run) against the installed packages' declarations, as a TypeScript user's
// editor would: the public entry points resolve, and their option types catch a misspelling.
import { trace } from '@opentelemetry/api';
import { classifyCall } from '@argspan/core';
import type { CallClassification, ClassifyOptions } from '@argspan/core';
import { ArgspanInstrumentation, ArgspanSession, runAgentTurn } from '@argspan/instrumentation';
import type { ArgspanInstrumentationConfig, RemoteHopRequest } from '@argspan/instrumentation';
import { setupTracing } from '@argspan/setup';
import type { TracingHandle } from '@argspan/setup';
import { instrumentAiTools } from '@argspan/adapters/ai';
import { analyze } from '@argspan/analyzer';
import type { AnalysisResult } from '@argspan/analyzer';
import { createRemoteHop } from '@argspan/hop';
import { CallAttributes } from '@argspan/conventions';
import { main, ExitCode } from 'argspan';

const options: ClassifyOptions = { remoteAllowlist: ['model.summarise'], denyResidencies: ['secret'] };
const c: CallClassification = classifyCall({ tool: 't', args: { q: 1 } }, { userText: ['q'] }, options);
const config: ArgspanInstrumentationConfig = { tracerProvider: trace.getTracerProvider(), recordArguments: true, policy: options };
const inst = new ArgspanInstrumentation(config);
const hop = (request: RemoteHopRequest): string => `${request.tool} ${request.residency}`;
const tracing: TracingHandle = setupTracing({ register: false });
const tools = instrumentAiTools({}, { session: new ArgspanSession() });
const result: Promise<AnalysisResult> = analyze({ paths: ['traces'] });
const code: Promise<number> = main(['node', 'argspan', '--version']);
// @ts-expect-error — a misspelt option is a type error, not a silently ignored key
const wrong: ArgspanInstrumentationConfig = { recordArgument: true };
export { c, inst, hop, tracing, tools, result, code, wrong, runAgentTurn, createRemoteHop, CallAttributes, ExitCode };
