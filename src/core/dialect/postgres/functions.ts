// What a statement may call on PostgreSQL. An allow-list, not a deny-list: the server has
// thousands of functions and extensions add more, some of which read server files (pg_read_file,
// pg_ls_dir, lo_import), reach other servers (dblink), change settings (set_config), signal other
// sessions (pg_terminate_backend) or take locks that outlive a read-only transaction (advisory
// locks). A function not named here is refused with its name, so a gap costs a readable message,
// never a write. Everything here is a built-in that only computes from its arguments and the rows.

const AGGREGATES =
  'count sum avg min max every bool_and bool_or bit_and bit_or bit_xor string_agg array_agg json_agg jsonb_agg ' +
  'json_object_agg jsonb_object_agg stddev stddev_pop stddev_samp variance var_pop var_samp corr covar_pop covar_samp ' +
  'regr_avgx regr_avgy regr_count regr_intercept regr_r2 regr_slope regr_sxx regr_sxy regr_syy percentile_cont ' +
  'percentile_disc mode range_agg range_intersect_agg any_value';

const WINDOW = 'row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value';

const MATH =
  'abs ceil ceiling floor round trunc sqrt cbrt power pow exp ln log log10 mod sign div greatest least pi degrees ' +
  'radians sin cos tan cot asin acos atan atan2 sind cosd tand cotd asind acosd atand atan2d sinh cosh tanh asinh ' +
  'acosh atanh width_bucket gcd lcm factorial scale min_scale trim_scale random';

const TEXT =
  'length char_length character_length octet_length bit_length lower upper initcap btrim ltrim rtrim lpad rpad ' +
  'substr strpos replace reverse left right concat concat_ws split_part repeat translate format regexp_replace ' +
  'regexp_match regexp_matches regexp_split_to_array regexp_split_to_table regexp_like regexp_count regexp_substr ' +
  'regexp_instr starts_with md5 sha224 sha256 sha384 sha512 encode decode to_hex ascii chr quote_ident ' +
  'quote_literal quote_nullable string_to_array string_to_table array_to_string unistr normalize to_ascii casefold';

const DATES =
  'now date_part date_trunc date_bin age to_char to_date to_timestamp to_number make_date make_time make_timestamp ' +
  'make_timestamptz make_interval justify_days justify_hours justify_interval isfinite timezone clock_timestamp ' +
  'statement_timestamp transaction_timestamp timeofday';

const JSON_FUNCTIONS =
  'to_json to_jsonb row_to_json array_to_json json_build_object jsonb_build_object json_build_array ' +
  'jsonb_build_array json_object jsonb_object json_array_length jsonb_array_length json_each jsonb_each ' +
  'json_each_text jsonb_each_text json_extract_path jsonb_extract_path json_extract_path_text ' +
  'jsonb_extract_path_text json_object_keys jsonb_object_keys json_array_elements jsonb_array_elements ' +
  'json_array_elements_text jsonb_array_elements_text json_typeof jsonb_typeof json_strip_nulls jsonb_strip_nulls ' +
  'jsonb_pretty jsonb_set jsonb_insert jsonb_path_exists jsonb_path_match jsonb_path_query jsonb_path_query_array ' +
  'jsonb_path_query_first json_populate_record jsonb_populate_record json_to_record jsonb_to_record ' +
  'json_to_recordset jsonb_to_recordset json_scalar json_serialize';

const ARRAYS =
  'array_length array_lower array_upper array_ndims array_dims array_position array_positions array_append ' +
  'array_prepend array_cat array_remove array_replace array_fill cardinality unnest trim_array array_sample ' +
  'array_shuffle generate_series generate_subscripts';

const RANGES = 'lower_inc upper_inc lower_inf upper_inf isempty range_merge multirange';

const OTHER =
  'coalesce nullif num_nulls num_nonnulls pg_typeof format_type textlen bool int2 int4 int8 float4 float8 text ' +
  'numeric date time timestamp timestamptz interval varchar bpchar';

/** pg_trgm's functions, when the extension is there: they only compare their arguments. */
const TRIGRAMS = 'similarity word_similarity strict_word_similarity show_trgm show_limit';

/** Built-in functions a read may call, by the name the server resolves (lower case). */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set(
  [AGGREGATES, WINDOW, MATH, TEXT, DATES, JSON_FUNCTIONS, ARRAYS, RANGES, OTHER, TRIGRAMS].join(' ').split(' '),
);

/**
 * Words the grammar itself puts before `(`: keywords, operators spelt as words, type names with a
 * modifier (`varchar(20)`), and the SQL-standard forms that look like calls (`CAST(… AS …)`,
 * `EXTRACT(… FROM …)`, `SUBSTRING(… FROM …)`).
 */
export const SYNTAX_BEFORE_PAREN: ReadonlySet<string> = new Set(
  (
    'select from where and or not in exists any all some as on using join lateral values row array over filter ' +
    'within group by partition order having union intersect except when then else case is distinct between like ' +
    'ilike similar escape with recursive materialized cast extract position substring trim overlay grouping ' +
    'treat collation for nulls first last rows range groups preceding following current unbounded limit offset ' +
    'fetch tablesample bernoulli system repeatable varying character char varchar numeric decimal dec timestamp ' +
    'time interval bit float double precision zone at only asc desc cube rollup sets ordinality ' +
    'nullif coalesce greatest least leading trailing both xmlelement xmlforest xmlconcat'
  ).split(/\s+/),
);

/**
 * Relations whose reading reads a server file (pg_hba_file_rules reads pg_hba.conf,
 * pg_file_settings postgresql.conf), shows what other sessions run, or holds secrets (password
 * hashes, user mappings with their passwords). A superuser may read them; Dowser never does.
 */
export const REFUSED_RELATIONS: ReadonlySet<string> = new Set([
  'pg_authid',
  'pg_shadow',
  'pg_user_mapping',
  'pg_user_mappings',
  'pg_hba_file_rules',
  'pg_ident_file_mappings',
  'pg_file_settings',
  'pg_largeobject',
  'pg_largeobject_metadata',
  'pg_stat_activity',
  'pg_settings',
  'pg_config',
  'pg_statistic',
  'pg_subscription',
]);
