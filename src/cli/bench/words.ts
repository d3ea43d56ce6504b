// Word lists for the generated database: real first names, surnames, countries and product words,
// some with accents, plus syllables for coined words. Real name lists have long tails; coined
// words ("Belmarwick") give vocabularies of that size without shipping a dictionary.

const words = (text: string) => text.trim().split(/\s+/);

export const FIRST_NAMES = words(`James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara
  Richard Susan Joseph Jessica Sarah Charles Karen Christopher Nancy Daniel Lisa Matthew Betty Anthony Margaret Mark
  Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Dorothy Kevin Carol Brian Amanda
  George Melissa Edward Deborah Ronald Stephanie Timothy Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen
  Gary Amy Nicholas Shirley Eric Angela Jonathan Helen Stephen Anna Larry Brenda Justin Pamela Nicole Brandon Emma
  Benjamin Samantha Samuel Katherine Gregory Christine Frank Debra Alexander Rachel Raymond Carolyn Patrick Janet Jack
  Catherine Dennis Maria Jerry Heather Tyler Diane Aaron Ruth Jose Julie Adam Olivia Henry Joyce Nathan Virginia Douglas
  Victoria Zachary Kelly Peter Lauren Kyle Christina Ethan Joan Walter Evelyn Noah Judith Jeremy Megan Christian Andrea
  José Zoë Renée André Søren Bjørn Chloé Inès Jürgen Łukasz François Noémie Ada Bo Cy Li Wu Ana Eva Max Leo Mia`);

export const SURNAMES = words(`Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez
  Gonzalez Wilson Anderson Taylor Moore Jackson Martin Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson
  Walker Young Allen King Wright Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter
  Roberts Müller Schröder Dubois Lefèvre García Núñez Kowalski Øvergaard Åberg Novák Horváth`);

export const SYLLABLES =
  words(`al an ar ba be bel bran bro ca car cas da del dor el en fal fen gar gil ha har hol in ka kel
  lan ler lin mar mel mor na nel nor or pa per ra ren ros sa sel ston ta tal ter tor va vel ver wal wen wick win yar zan`);

export const PLACE_PREFIX = words('North South East West Port Lake Mount New Saint Fort Upper Lower Old Little Great');
export const PLACE_SUFFIX = words('ford ton ville burg field wood moor dale bury haven ridge brook stead mouth');
export const PLACE_EXTRA = words('Heights Springs Falls Harbour Crossing Valley Junction Bay Park Hills');
export const STREET_KIND = words(
  'Street Road Lane Avenue Close Way Drive Court Place Terrace Row Gardens Crescent Walk',
);
export const REGION_KIND = words('County Province District Region Shire Territory');

export const COUNTRIES = words(`France Germany Spain Italy Portugal Ireland Norway Sweden Denmark Finland Iceland Poland
  Austria Hungary Greece Turkey Egypt Morocco Kenya Nigeria Ghana Brazil Argentina Chile Peru Colombia Mexico Canada
  Japan Korea China India Pakistan Vietnam Thailand Malaysia Indonesia Australia Zealand Belgium Netherlands Czechia
  Slovakia Croatia Serbia Romania Bulgaria Ukraine Estonia Latvia Lithuania Luxembourg Malta Cyprus Tunisia Senegal`);

export const SENIORITY = words('Junior Senior Lead Principal Chief Assistant Associate Staff Head Deputy');
export const FIELDS =
  words(`Data Software Sales Marketing Finance Legal Product Design Research Support Security Network
  Quality Supply Payroll Facilities Training Content Brand Customer Field Clinical Laboratory Warehouse Fleet Events`);
export const ROLES = words(`Engineer Analyst Manager Director Officer Specialist Coordinator Consultant Architect
  Administrator Technician Planner Scientist Advisor Designer Editor Buyer Controller Recruiter Strategist`);

export const ADJECTIVES =
  words(`Classic Modern Vintage Rustic Deluxe Compact Portable Ergonomic Premium Organic Handmade
  Lightweight Heavy-Duty Waterproof Wireless Foldable Adjustable Elegant Minimalist Industrial Sleek Durable Cozy Smart
  Eco-Friendly Antique Bold Soft Bright Matte Glossy Slim Rugged Luxe Nordic Tropical Urban Coastal Alpine Crème`);
export const MATERIALS =
  words(`Cotton Leather Wooden Steel Bamboo Ceramic Glass Linen Wool Silk Copper Marble Velvet Denim
  Oak Walnut Aluminium Canvas Granite Suede Porcelain Rattan Cashmere Titanium Brass Concrete Cork Jute Felt Acrylic`);
export const NOUNS =
  words(`Chair Table Lamp Shirt Jacket Backpack Mug Bowl Vase Desk Shelf Sofa Blanket Pillow Rug Mirror
  Clock Kettle Teapot Wallet Belt Scarf Hat Boots Sneakers Headphones Speaker Keyboard Mouse Monitor Stand Planter Basket
  Tray Candle Frame Notebook Pen Bottle Cooler Tent Hammock Bench Stool Cabinet Dresser Wardrobe Curtain Towel Apron Glove
  Umbrella Bicycle Helmet Skateboard Guitar Ukulele Drum Easel Palette Brush Sculpture Puzzle Chessboard Telescope Compass
  Lantern`);
export const SIZES = words('Small Medium Large XL');

export const INDUSTRIES =
  words(`Logistics Consulting Bakery Software Builders Motors Pharmacy Textiles Foods Energy Media
  Analytics Robotics Furniture Insurance Capital Outfitters Brewing Studios Partners Café Clinic`);
export const COMPANY_SUFFIX = words('Ltd Inc GmbH LLC Co Group SA');
