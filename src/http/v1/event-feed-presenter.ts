// A page of the events feed as bytes: each event is written as it is stored, the body its deliveries
// carried, never parsed and serialized again, so a feed item equals the delivered body byte for byte.
export function presentEventPage(payloads: readonly string[], nextCursor: string | null): string {
  return `{"data":[${payloads.join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}`;
}
