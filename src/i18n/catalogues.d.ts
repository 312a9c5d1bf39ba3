// A catalogue's part, as `scripts/catalogue-loader.cjs` builds it: message id → message.
declare module '*.json?first' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?screens' {
  const messages: Record<string, string>;
  export default messages;
}
