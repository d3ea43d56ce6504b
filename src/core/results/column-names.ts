// What a column's name says about its numbers: one rule for the grid's number format and the
// chart rules (ids, codes, phone and flight numbers name things; they are not measured).

const SNAKE = /(^|[_\s])(id|code|zip|phone|postal|no|number)$/i;
const CAMEL = /[a-z](Id|ID|Code|Zip|Phone|No|Number)$/;

/** `id`, `customer_id`, `CustomerId`, `postal_code`, `FlightNo`, `phone_number`; not `paid` or `stuid`. */
export function isIdentifierName(name: string): boolean {
  return SNAKE.test(name) || CAMEL.test(name);
}
