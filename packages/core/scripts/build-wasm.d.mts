export declare const WAT_FILE: URL;
export declare const GENERATED_FILE: URL;
export declare function assembleKeywordScan(watUrl?: URL): Promise<{ bytes: number; source: string }>;
