package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.ValueType;

import java.util.List;

/** What differs between MariaDB/MySQL and H2 in the SQL the plans generate. */
public enum LockingDialect {
    /** MariaDB 10.5+ (INSERT/DELETE … RETURNING). */
    MARIADB,
    /** H2 2.x (data change delta tables). */
    H2;

    public static LockingDialect of(Dialect dialect) {
        return switch (dialect.kind()) {
            case MYSQL -> MARIADB;
            case H2 -> H2;
            case POSTGRESQL -> throw new IllegalArgumentException("PostgreSQL has its own capture plans");
        };
    }

    public Dialect sqlDialect() {
        return this == MARIADB ? Dialect.Kind.MYSQL.dialect() : Dialect.Kind.H2.dialect();
    }

    public String quote(String identifier) {
        return this == MARIADB ? "`" + identifier.replace("`", "``") + "`"
                : "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /**
     * The type a column's values are logged as: a MariaDB/MySQL {@code TIMESTAMP} holds an instant
     * (stored in UTC, shown in the session's {@code time_zone}), so it is logged as a TIMESTAMPTZ;
     * {@code DATETIME} and every H2 column as their own type.
     */
    public ValueType loggedType(ColumnInfo column) {
        return isInstant(this, column) ? ValueType.TIMESTAMPTZ : column.type();
    }

    /** Whether {@code column} is a MariaDB/MySQL {@code TIMESTAMP}: an instant read and written as a wall time of the session's zone. */
    public static boolean isInstant(LockingDialect dialect, ColumnInfo column) {
        return dialect == MARIADB && column.type() == ValueType.TIMESTAMP && column.typeName() != null
                && column.typeName().trim().toUpperCase(java.util.Locale.ROOT).startsWith("TIMESTAMP");
    }

    /** Now, with microseconds, of a type that compares correctly with the column. */
    String now(ColumnInfo column) {
        if (this == MARIADB) return "NOW(6)";
        return column.type() == ValueType.TIMESTAMPTZ ? "CURRENT_TIMESTAMP(6)" : "LOCALTIMESTAMP(6)";
    }

    /** SPEC 5.6: now, or the old value plus a microsecond when it is not earlier than now. */
    String nextTimestamp(ColumnInfo column, String current) {
        String now = now(column);
        String plusOne = this == MARIADB ? current + " + INTERVAL 1 MICROSECOND"
                : "DATEADD(MICROSECOND, 1, " + current + ")";
        return "CASE WHEN " + current + " IS NULL OR " + current + " < " + now + " THEN " + now + " ELSE "
                + plusOne + " END";
    }

    /** Row limit of a page of the locking read. */
    String limit(int rows) {
        return this == MARIADB ? " LIMIT " + rows : " FETCH FIRST " + rows + " ROWS ONLY";
    }

    String quotedList(List<String> columns) {
        StringBuilder out = new StringBuilder();
        for (String c : columns) {
            if (out.length() > 0) out.append(", ");
            out.append(quote(c));
        }
        return out.toString();
    }
}
