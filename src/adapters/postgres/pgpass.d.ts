// The pgpass package (the one pg itself used) has no types of its own.
declare module 'pgpass' {
  interface ConnInfo {
    host?: string;
    port?: number | string;
    database?: string;
    user?: string;
  }
  function pgpass(connInfo: ConnInfo, callback: (password: string | undefined) => void): void;
  export default pgpass;
}
