// The scripted demo on the demo database (public/demo.sqlite, an outdoor-gear retailer): a
// first-time visitor with no model configured still sees the whole flow. The assistant's turns
// are written here in advance and replayed by createScriptedModel (native tool calls); the tools
// and the SQL run live. So nothing below may state a result (no counts, names or totals): the
// rows come from the database each time, and the script keeps working if the demo data changes
// in a compatible way (same tables, columns and spellings of "Canada" and "delivered").

import type { ScriptedTurn } from '../llm/scripted';

export const DEMO_QUESTION = 'Which 5 customers in Canada spent the most on delivered orders in 2024?';

export const DEMO_NOTE =
  "Scripted demo: no model is answering. The assistant's messages are pre-written and replayed; the tools and the SQL run live on your demo database, so the rows you see are real. Configure a model in Settings to ask your own questions.";

// The SQL follows the join path find_shortest_path returns (customers -> orders -> order_items).
// "Spent" is the goods after line discounts; shipping is per order, so adding it per line would
// count it once per item.
export const DEMO_SQL = `SELECT c.first_name || ' ' || c.last_name AS customer,
       ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS total_spent
FROM customers AS c
JOIN orders AS o ON o.customer_id = c.customer_id
JOIN order_items AS oi ON oi.order_id = o.order_id
WHERE c.country = 'Canada'
  AND o.status = 'delivered'
  AND o.order_date >= '2024-01-01' AND o.order_date < '2025-01-01'
GROUP BY c.customer_id
ORDER BY total_spent DESC
LIMIT 5`;

const PLAN = {
  sub_questions: [
    {
      text: 'Which customers live in Canada?',
      tables: [{ table: 'customers', columns: ['customer_id', 'first_name', 'last_name', 'country'] }],
    },
    {
      text: 'Which of their orders were delivered and placed in 2024?',
      tables: [{ table: 'orders', columns: ['order_id', 'customer_id', 'status', 'order_date'] }],
    },
    {
      text: 'How much did each of those customers spend on those orders, and who are the top 5?',
      tables: [{ table: 'order_items', columns: ['order_id', 'quantity', 'unit_price', 'discount'] }],
    },
  ],
};

export const DEMO_SCRIPT: readonly ScriptedTurn[] = [
  {
    text: "This needs three things: customers who live in Canada, their delivered orders from 2024, and the money spent on each order's items. I will write that down as a plan first.",
    toolCalls: [{ name: 'submit_plan', arguments: PLAN }],
  },
  {
    text: 'First I check how the database spells the country, so the filter matches exactly.',
    toolCalls: [{ name: 'search_value', arguments: { query: 'Canada' } }],
  },
  {
    text: '"Canada" appears in customers.country, which is where a customer lives (orders.ship_country is only where a parcel went). Next, the exact spelling of the delivered status.',
    toolCalls: [{ name: 'search_value', arguments: { query: 'delivered' } }],
  },
  {
    text: '"delivered" is a value of orders.status. Now I need to know how customers connect to the order lines that hold quantities and prices.',
    toolCalls: [{ name: 'find_shortest_path', arguments: { start: 'customers', end: 'order_items' } }],
  },
  {
    text: 'Customers join orders, and orders join order_items. I add up quantity times price after discount per customer, keep only Canadian customers and delivered orders dated in 2024, and take the five largest totals.',
    toolCalls: [{ name: 'execute_sql', arguments: { sql: DEMO_SQL } }],
  },
  {
    text: 'The query ran and returned the top customers with their totals, largest first. That answers the question.',
    toolCalls: [{ name: 'done', arguments: { sql: DEMO_SQL } }],
  },
  // The closing explanation call (explain.ts): "Explanation: …" then "Verdict: …".
  {
    text: 'Explanation: These are the five customers who live in Canada and spent the most on orders that were placed in 2024 and delivered, largest total first. Each total is what they paid for the items after discounts; shipping is not included.\nVerdict: match',
  },
];
