// The two parts of undici the HTTP transport uses, imported by their files: undici's index loads
// all of undici (fetch, WebSocket, cookies — and through them Node's own copy of undici), which
// cost every command against a remote platform a third of a megabyte of code to compile.
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.prototype.request, called with the dispatcher as `this`. */
  function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
  export default request;
}
