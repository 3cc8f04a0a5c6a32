package io.jdbcrepl.capture.sql;

import java.util.Locale;
import java.util.Optional;

/** The SQL dialects the driver captures, with the way each folds unquoted identifiers. */
public enum Dialect {
    POSTGRESQL,
    /** MySQL and MariaDB. */
    MYSQL,
    H2;

    /** The dialect of a JDBC subprotocol: {@code postgresql}, {@code mysql}, {@code mariadb}, {@code h2}. */
    public static Dialect fromSubprotocol(String subprotocol) {
        return ofSubprotocol(subprotocol).orElseThrow(() -> new IllegalArgumentException(
                "no SQL dialect for the JDBC subprotocol '" + subprotocol + "': jdbc:repl captures postgresql, mysql,"
                        + " mariadb and h2"));
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
