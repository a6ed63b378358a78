/** Version of @argspan/instrumentation, recorded as the instrumentation scope version. */
export const VERSION = '0.1.0';
