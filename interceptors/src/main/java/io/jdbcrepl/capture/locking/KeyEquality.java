package io.jdbcrepl.capture.locking;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.sql.SqlFragment;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a WHERE clause is exactly "every primary key column equals a parameter"
 * ({@code id = ?}, {@code t.a = ? AND t.b = ?}): then the statement changes at most one row,
 * the one its locking read finds. Anything else (other conditions, OR, functions, literals) is not.
 */
final class KeyEquality {

    private static final String IDENT = "(?:`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_$]*|\"(?:[^\"]|\"\")+\")";
    private static final Pattern CONJUNCT = Pattern.compile("\\s*(?:(" + IDENT + ")\\s*\\.\\s*)?(" + IDENT + ")\\s*=\\s*\\?\\s*");
    private static final Pattern AND = Pattern.compile("(?i)\\s+AND\\s+");

    private KeyEquality() {
    }

    static boolean matches(SqlFragment where, List<String> key, String table, String alias, Dialect dialect) {
        if (where == null || key.isEmpty()) return false;
        String text = where.text();
        if (text.contains("--") || text.contains("/*") || text.contains("#")) return false;
        Set<String> seen = new HashSet<>();
        for (String conjunct : AND.split(text, -1)) {
            Matcher m = CONJUNCT.matcher(conjunct);
            if (!m.matches()) return false;
            if (m.group(1) != null) {
                String qualifier = name(m.group(1), dialect);
                String expected = alias != null ? dialect.fold(alias) : table;
                if (!qualifier.equalsIgnoreCase(expected)) return false;
            }
            String column = name(m.group(2), dialect).toLowerCase(Locale.ROOT);
            if (!seen.add(column)) return false;
        }
        if (seen.size() != key.size()) return false;
        for (String k : key) if (!seen.contains(k.toLowerCase(Locale.ROOT))) return false;
        return where.parameters().size() == key.size();
    }

    private static String name(String token, Dialect dialect) {
        char first = token.charAt(0);
        if (first == '`') return token.substring(1, token.length() - 1).replace("``", "`");
        if (first == '"') return token.substring(1, token.length() - 1).replace("\"\"", "\"");
        return dialect.fold(token, false);
    }
}
