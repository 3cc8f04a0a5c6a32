package io.jdbcrepl.config;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One entry of {@code repl.tables} or {@code repl.exclude}: {@code *.*}, {@code hr.*},
 * {@code hr.emp*}, {@code orders} (current schema). {@code *} matches any run of characters.
 *
 * @param schema the schema glob as written, or null for the connection's current schema
 * @param table the table glob as written
 */
public record TablePattern(String schema, String table) {

    private static final Pattern GLOB = Pattern.compile("[\\p{L}\\p{N}_$#*]+");

    public TablePattern {
        Objects.requireNonNull(table, "table");
    }

    /** @throws IllegalArgumentException with the reason, when the text is not a pattern */
    public static TablePattern parse(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("'" + text + "' has more than one dot (expected schema.table or table)");
        }
        for (String part : parts) {
            if (!GLOB.matcher(part).matches()) {
                throw new IllegalArgumentException("'" + text + "' is not a table pattern (identifiers and *)");
            }
        }
        return parts.length == 2 ? new TablePattern(parts[0], parts[1]) : new TablePattern(null, parts[0]);
    }

    /** Same contract as {@link TableName#matches}, with {@code *} as a wildcard. */
    public boolean matches(String schema, String table, String currentSchema, boolean foldsToUpper) {
        return globMatches(this.table, table, foldsToUpper)
                && TableName.schemaMatches(this.schema, schema, currentSchema, foldsToUpper, true);
    }

    /** Glob match after folding both sides; only '*' is special. */
    static boolean globMatches(String glob, String text, boolean foldsToUpper) {
        String g = Identifiers.fold(glob, foldsToUpper);
        String t = Identifiers.fold(text, foldsToUpper);
        int gi = 0, ti = 0, star = -1, mark = 0;
        while (ti < t.length()) {
            if (gi < g.length() && g.charAt(gi) != '*' && g.charAt(gi) == t.charAt(ti)) {
                gi++;
                ti++;
            } else if (gi < g.length() && g.charAt(gi) == '*') {
                star = gi++;
                mark = ti;
            } else if (star >= 0) {
                gi = star + 1;
                ti = ++mark;
            } else {
                return false;
            }
        }
        while (gi < g.length() && g.charAt(gi) == '*') {
            gi++;
        }
        return gi == g.length();
    }

    @Override
    public String toString() {
        return schema == null ? table : schema + "." + table;
    }
}
