// Fields more than one tool's face shares (types.ts ToolFace).

/** How many results (`k`): a short number field, 1 to 20. */
export const HOW_MANY_FIELD = {
  name: 'k',
  label: 'How many',
  placeholder: '5',
  kind: 'number',
  required: false,
  positional: false,
  narrow: true,
  min: 1,
  max: 20,
} as const;
