package io.jdbcrepl.lcr;

import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/**
 * Times and timestamps as the text MySQL and MariaDB read back exactly. MySQL Connector/J takes
 * MariaDB 10's handshake version ({@code 5.5.5-10.x}) for a server without fractional seconds and
 * drops the fraction of every bound {@code LocalDateTime}, {@code LocalTime}, {@code Timestamp}
 * and {@code Time}, whatever {@code sendFractionalSeconds} says (ENGINEERING.md); a string
 * parameter reaches the server as written, with either connector, and the server converts it to
 * the column's type (also in comparisons with a temporal column).
 */
public final class TemporalText {

    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder().appendPattern("HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).toFormatter();
    private static final DateTimeFormatter DATETIME = new DateTimeFormatterBuilder().appendPattern("uuuu-MM-dd ")
            .append(TIME).toFormatter();

    private TemporalText() {
    }

    /**
     * {@code value} as {@code yyyy-MM-dd HH:mm:ss[.fraction]} or {@code HH:mm:ss[.fraction]}
     * when it is a local timestamp or time (java.time or java.sql), else null: a value to bind
     * as it is.
     */
    public static String of(Object value) {
        if (value instanceof LocalDateTime t) return DATETIME.format(t);
        if (value instanceof LocalTime t) return TIME.format(t);
        if (value instanceof java.sql.Timestamp t) return DATETIME.format(t.toLocalDateTime());
        if (value instanceof java.sql.Time t) return TIME.format(t.toLocalTime());
        return null;
    }
}
