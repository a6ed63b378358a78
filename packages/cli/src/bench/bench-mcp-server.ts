/**
 * The server behind `npm run bench:mcp-proxy`: the SDK's low-level Server over stdio with one tool,
 * `calendar_create`, whose 9-leaf call the bench times. Its JSON schema is plain (no zod), and it
 * answers at once, so what is timed is the transport and whatever sits in front of it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'argspan-bench-calendar', version: '1.0.0' }, { capabilities: { tools: {} } });
const person = { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } } };
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'calendar_create',
      description: 'Create a calendar event.',
      inputSchema: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          start: { type: 'string' },
          end: { type: 'string' },
          location: { type: 'string' },
          notes: { type: 'string' },
          attendees: { type: 'array', items: person },
        },
      },
    },
  ],
}));
let created = 0;
server.setRequestHandler(CallToolRequestSchema, async () => {
  created += 1;
  return { content: [{ type: 'text', text: `created event ${created}` }] };
});
await server.connect(new StdioServerTransport());
