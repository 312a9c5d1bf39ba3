const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `text` has a UUID's shape (our ids), as opposed to a name. */
export const looksLikeUuid = (text: string) => UUID.test(text);
