export interface WasmModule {
  wat: URL;
  generated: URL;
  constant: string;
}
export declare const WASM_MODULES: { keywordScan: WasmModule; jsonByteScan: WasmModule };
export declare function assembleWasm(module: WasmModule): Promise<{ bytes: number; source: string }>;
