// Words for the realistic bench database (shop-data.ts): the everyday vocabulary of order notes
// and support tickets, and sentence templates that mix it with names, products, places, codes
// and a long tail of coined words, as real free text mixes common words with rare names.

const words = (text: string) => text.trim().split(/\s+/);

export const VERBS = words(`replace refund return repair collect deliver ship cancel confirm check update contact
  call email resend exchange inspect pack track reschedule upgrade downgrade credit charge reorder verify escalate
  investigate approve reject process assemble install clean test measure`);

export const PROBLEMS = words(`damaged broken scratched missing late delayed wrong faulty defective leaking cracked
  dented stained torn loose noisy incomplete misprinted expired mislabelled crushed bent wet mouldy discoloured`);

export const THINGS = words(`parcel package box delivery invoice receipt label lid handle strap zipper cable charger
  battery screen hinge drawer cushion leg wheel manual warranty voucher instructions screws remote adapter cover`);

export const PEOPLE_WORDS = words(`customer courier driver neighbour receptionist warehouse manager supplier
  technician agent buyer husband wife daughter son colleague tenant landlord`);

export const TIME_WORDS = words(`Monday Tuesday Wednesday Thursday Friday Saturday Sunday morning afternoon evening
  tomorrow yesterday weekend January February March April May June July August September October November December`);

export const CAMPAIGNS = words(`SPRING SUMMER AUTUMN WINTER BLACKFRIDAY CYBERMONDAY NEWYEAR EASTER BACKTOSCHOOL
  WELCOME LOYALTY FLASH CLEARANCE HOLIDAY MIDSEASON VIP`);

export const STATUSES_EARLY: Array<[string, number]> = [
  ['delivered', 0.8],
  ['shipped', 0.08],
  ['cancelled', 0.06],
  ['returned', 0.04],
  ['refunded', 0.015],
  ['lost in transit', 0.005],
];
/** A status the shop started using late (present only in the last rows, in insertion order). */
export const LATE_STATUS = 'awaiting pickup';

export const CHANNELS: Array<[string, number]> = [
  ['web', 0.55],
  ['mobile app', 0.3],
  ['phone', 0.1],
  ['marketplace', 0.05],
];

export const SEGMENTS: Array<[string, number]> = [
  ['Consumer', 0.6],
  ['Small Business', 0.25],
  ['Enterprise', 0.1],
  ['Public Sector', 0.04],
  ['Non-profit', 0.01],
];

export const PRIORITIES: Array<[string, number]> = [
  ['normal', 0.6],
  ['low', 0.2],
  ['high', 0.15],
  ['urgent', 0.05],
];

export const DOMAINS = words('mail.com post.net example.org inbox.eu webmail.co fastmail.io letter.me');

/**
 * Note and ticket sentences. Slots: {verb} {problem} {thing} {who} {when} {first} {last} {item}
 * (a product noun), {title} (a product title), {city}, {num}, {code} (an order code), {rare} (a
 * coined word from the long tail: jargon, a street, a nickname).
 */
export const SENTENCES = [
  'Customer asked us to {verb} the {item} before {when}.',
  'The {thing} arrived {problem}, {who} took photos.',
  '{first} called about the {problem} {thing} and wants to {verb} it.',
  'Please {verb} to {first} {last} in {city}, not the billing address.',
  'Left at the {rare} entrance as agreed with the {who}.',
  'Second attempt: {who} could not find {rare} lane on {when}.',
  'Gift for {first}, remove the receipt and add a card.',
  'Replacement {item} sent, old one to be collected {when}.',
  'Order {code} was merged with this one.',
  'The {title} is {problem}; {verb} under warranty.',
  'Do not ring the bell, baby sleeping. Call {first} on arrival.',
  'Customer prefers {when} deliveries after {num} pm.',
  '{who} reports the {thing} was {problem} and the {item} {problem}.',
  'Asked for a discount of {num} percent because of the {problem} {thing}.',
  'Courier left it with {first} at number {num}.',
  'Waiting for the {rare} part from the supplier in {city}.',
  'Escalated to {first} {last}: third complaint this month.',
  'Wrong colour of {item} delivered, customer wants the {title}.',
  'Address corrected to {rare} Street {num}, {city}.',
  'Paid by bank transfer, reference {code}.',
];

export const TICKET_SUBJECTS = [
  'Refund request for order {code}',
  '{problem} {item} on delivery',
  'Question about {title}',
  'Where is my parcel?',
  'Change delivery address',
  'Invoice needed for {code}',
  '{item} {problem} after {num} days',
  'Cancel my order please',
  'Missing {thing} in the box',
  'Complaint about the courier',
];
