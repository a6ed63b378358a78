export async function main(argv: string[]): Promise<number> { return 0; }
