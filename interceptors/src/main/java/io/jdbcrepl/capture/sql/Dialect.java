package io.jdbcrepl.capture.sql;

import io.jdbcrepl.intercept.SqlState;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/** The SQL dialects the driver captures, with the way each folds unquoted identifiers. */
public enum Dialect {
    POSTGRESQL,
    /** MySQL and MariaDB. */
    MYSQL,
    H2;

    /**
     * The subprotocol of a JDBC URL, {@code jdbc:<subprotocol>:...} ({@code postgresql}, {@code h2},
     * another driver's), or "" when it is not one. The one place that reads it from a URL.
     */
    public static String subprotocol(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:")) return "";
        int end = jdbcUrl.indexOf(':', "jdbc:".length());
        return end < 0 ? "" : jdbcUrl.substring("jdbc:".length(), end);
    }

    /** The dialect of a JDBC URL, empty for a database the driver does not capture on. */
    public static Optional<Dialect> ofUrl(String jdbcUrl) {
        return ofSubprotocol(subprotocol(jdbcUrl));
    }

    /** The dialect of a JDBC URL; refused (naming the subprotocol) for a database the driver does not capture on. */
    public static Dialect forUrl(String jdbcUrl) throws SQLException {
        String subprotocol = subprotocol(jdbcUrl);
        return ofSubprotocol(subprotocol).orElseThrow(() -> SqlState.REFUSED.exception("jdbc:repl captures and applies on"
                + " postgresql, mysql, mariadb and h2, not on '" + subprotocol + "' (of a URL starting jdbc:"
                + subprotocol + ":)"));
    }

    /** The dialect of a JDBC subprotocol, empty for a database the driver does not capture on. */
    public static Optional<Dialect> ofSubprotocol(String subprotocol) {
        return Optional.ofNullable(switch (subprotocol == null ? "" : subprotocol.toLowerCase(Locale.ROOT)) {
            case "postgresql" -> POSTGRESQL;
            case "mysql", "mariadb" -> MYSQL;
            case "h2" -> H2;
            default -> null;
        });
    }

    /** An identifier quoted for this dialect's SQL: {@code `name`} on MySQL/MariaDB, {@code "name"} elsewhere. */
    public String quote(String identifier) {
        return this == MYSQL ? "`" + identifier.replace("`", "``") + "`" : "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /**
     * The name an identifier written this way stands for: quoted ({@code "Order"}, {@code `Order`})
     * keeps its case without the quotes; unquoted folds to lower case on PostgreSQL, to upper case
     * on H2 and stays as written on MySQL, whose case rules depend on the server (match it
     * case-insensitively there).
     */
    public String fold(String identifier) {
        return Identifiers.isQuoted(identifier) ? Identifiers.unquote(identifier) : fold(identifier, false);
    }

    /** The name an identifier stands for, given without quotes and whether it was quoted. */
    public String fold(String name, boolean quoted) {
        if (quoted || name == null) return name;
        return switch (this) {
            case POSTGRESQL -> lowerAscii(name); // PostgreSQL folds only A-Z in multibyte encodings
            case H2 -> name.toUpperCase(Locale.ROOT);
            case MYSQL -> name;
        };
    }

    private static String lowerAscii(String s) {
        char[] c = s.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] >= 'A' && c[i] <= 'Z') c[i] = (char) (c[i] + ('a' - 'A'));
        }
        return new String(c);
    }
}
