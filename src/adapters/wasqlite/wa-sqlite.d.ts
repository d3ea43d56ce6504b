// The package's own declarations are not on the compiler's path; the factory is all we import.
declare module '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs' {
  export default function Factory(config?: object): Promise<unknown>;
}
