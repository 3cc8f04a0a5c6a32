package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.mview.MviewCommand.Name;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** Small SQL helpers shared by the package: quoting, timestamp literals, running statements. */
final class Sql {

    /** SNAPTIME$$ of a log row no refresh has stamped yet (the seed's 4000-01-01 00:00:00). */
    static final LocalDateTime NOT_REFRESHED = LocalDateTime.of(4000, 1, 1, 0, 0);

    private static final DateTimeFormatter LITERAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    private Sql() {
    }

    static String quote(Dialect dialect, String name) {
        return dialect.quote(name);
    }

    static String quote(Dialect dialect, Name name) {
        return name.schema() == null ? quote(dialect, name.name()) : quote(dialect, name.schema()) + "." + quote(dialect, name.name());
    }

    /**
     * A timestamp as a literal in the SQL text: MySQL Connector/J drops the fractions of bound
     * timestamps on MariaDB (ENGINEERING.md), and refresh times must keep their microseconds.
     */
    static String timestamp(LocalDateTime t) {
        return "TIMESTAMP '" + LITERAL.format(t) + "'";
    }

    /** A column name as the dialect stores an unquoted one (SNAPTIME$$ on H2 and MariaDB, snaptime$$ on PostgreSQL). */
    static String column(Dialect dialect, String upperName) {
        return dialect.fold(upperName, false);
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    static int update(Connection c, String sql, List<Object> params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) ps.setObject(i + 1, params.get(i));
            return ps.executeUpdate();
        }
    }
}
