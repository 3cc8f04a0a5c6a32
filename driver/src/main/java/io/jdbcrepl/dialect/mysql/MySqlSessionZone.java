package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.capture.SessionZone;
import io.jdbcrepl.intercept.SqlState;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MariaDB/MySQL: the zone in which a session shows {@code TIMESTAMP} values ({@code time_zone},
 * {@code SYSTEM} being the server's {@code system_time_zone}), so that a wall time read back
 * becomes the instant the column holds.
 */
final class MySqlSessionZone implements SessionZone {

    private static final Pattern OFFSET = Pattern.compile("([+-])(\\d{1,2}):(\\d{2})");

    /** The session's zone; an SQLException when Java knows no zone of that name. */
    @Override
    public ZoneId of(Connection connection) throws SQLException {
        String zone;
        String system;
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@session.time_zone, @@global.system_time_zone")) {
            rs.next();
            zone = rs.getString(1);
            system = rs.getString(2);
        }
        String name = "SYSTEM".equalsIgnoreCase(zone) ? system : zone;
        try {
            return parse(name);
        } catch (DateTimeException e) {
            throw SqlState.INVALID_PARAMETER_VALUE.exception(
                    "The MariaDB session's time_zone '" + zone + "'" + ("SYSTEM".equalsIgnoreCase(zone)
                    ? " (system_time_zone '" + system + "')" : "") + " is no zone Java knows, so a TIMESTAMP column's"
                    + " value cannot be captured as the instant it holds: set time_zone to an offset ('+00:00') or a"
                    + " region ('Europe/Paris')", e);
        }
    }

    /** {@code +5:00}, {@code -08:00}, a region or an abbreviation Java knows ({@code UTC}, {@code CET}, {@code EST}). */
    static ZoneId parse(String name) {
        Matcher m = OFFSET.matcher(name == null ? "" : name.trim());
        if (m.matches()) {
            int sign = m.group(1).equals("-") ? -1 : 1;
            return ZoneOffset.ofHoursMinutes(sign * Integer.parseInt(m.group(2)), sign * Integer.parseInt(m.group(3)));
        }
        if (name == null) throw new DateTimeException("no zone");
        return ZoneId.of(name.trim(), ZoneId.SHORT_IDS);
    }
}
