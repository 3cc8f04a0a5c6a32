package io.jdbcrepl.capture.session;

import java.util.Locale;
import java.util.Set;

/**
 * SQL that ends the open transaction without the proxy's commit() or rollback(): the statements
 * {@code COMMIT} and {@code ROLLBACK}, and on MySQL/MariaDB and H2 the statements that commit
 * implicitly (DDL, {@code BEGIN}, {@code LOCK TABLES}, ...). A captured transaction must be
 * stamped before such a statement, or the apply side would never see it.
 */
final class TransactionControl {

    enum Effect { NONE, COMMITS, ROLLS_BACK }

    private static final Set<String> IMPLICIT_COMMIT = Set.of("CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE",
            "GRANT", "REVOKE", "LOCK", "UNLOCK", "ANALYZE", "OPTIMIZE", "REPAIR", "BEGIN", "START", "COMMIT", "END",
            "CHECKPOINT", "SHUTDOWN");

    private TransactionControl() {
    }

    static Effect of(String sql) {
        String word = firstWord(sql);
        if (word.equals("ROLLBACK")) return sql.toUpperCase(Locale.ROOT).contains(" TO ") ? Effect.NONE : Effect.ROLLS_BACK;
        return IMPLICIT_COMMIT.contains(word) ? Effect.COMMITS : Effect.NONE;
    }

    /** The first keyword, upper case, after white space and comments; "" when none. */
    static String firstWord(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') i++;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                break;
            }
        }
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) i++;
        return sql.substring(start, i).toUpperCase(Locale.ROOT);
    }
}
