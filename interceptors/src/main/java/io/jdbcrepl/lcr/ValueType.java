package io.jdbcrepl.lcr;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.Locale;
import java.util.UUID;

/**
 * The portable type of a captured value: what it is in Java, how it is written in the change
 * log's JSON, and how it is read from and bound to JDBC. One type per family (all integers are
 * INTEGER) so that a value moves between PostgreSQL, MariaDB and H2 without loss.
 */
public enum ValueType {
    /** {@link Boolean}; JSON true/false. */
    BOOLEAN(Types.BOOLEAN),
    /** {@link Long} (smallint, int, bigint); JSON number. */
    INTEGER(Types.BIGINT),
    /** {@link BigDecimal} with its scale; JSON number written plainly. PostgreSQL's NaN and infinities: {@link Double}, "NaN", "Infinity", "-Infinity". */
    DECIMAL(Types.NUMERIC),
    /** {@link Double} (real, double precision); JSON number, or "NaN", "Infinity", "-Infinity", "-0.0". */
    FLOAT(Types.DOUBLE),
    /** {@link String} (char, varchar, text, clob). */
    STRING(Types.VARCHAR),
    /**
     * {@link LocalDate}; ISO-8601 string (BC dates with a negative year). PostgreSQL's
     * {@code infinity} and {@code -infinity} are {@link LocalDate#MAX} and {@link LocalDate#MIN},
     * logged as those words; a MySQL zero date ({@code 0000-00-00}) is kept as that text. The same
     * holds for the other dates and times.
     */
    DATE(Types.DATE),
    /** {@link LocalTime}; ISO-8601 string, to the nanosecond; a time of day past it (24:00:00, MySQL's 838:59:59) as its text. */
    TIME(Types.TIME),
    /** {@link LocalDateTime}; ISO-8601 string, to the nanosecond. */
    TIMESTAMP(Types.TIMESTAMP),
    /** {@link OffsetDateTime}; ISO-8601 string with its offset. */
    TIMESTAMPTZ(Types.TIMESTAMP_WITH_TIMEZONE),
    /** {@code byte[]}; base64 string. */
    BINARY(Types.VARBINARY),
    /** {@link UUID}; its canonical string. */
    UUID_(Types.OTHER),
    /** A JSON document kept as its text. */
    JSON(Types.OTHER),
    /**
     * {@code byte[]}: the content of a PostgreSQL large object that an {@code oid} (or {@code lo})
     * column names; base64 string. The number itself names nothing on another database, so the
     * log carries the bytes; apply stores them in an object of its own (see
     * {@code io.jdbcrepl.dialect.Dialect#readValue}). Read and bound as bytes: SQL that selects or
     * assigns such a column wraps it in {@code lo_get} / {@code lo_from_bytea}.
     */
    LARGE_OBJECT(Types.VARBINARY);

    private final int sqlType;

    ValueType(int sqlType) {
        this.sqlType = sqlType;
    }

    /** The name used in the change log ({@code UUID} for {@link #UUID_}). */
    public String logName() {
        return this == UUID_ ? "UUID" : name();
    }

    public static ValueType ofLogName(String name) {
        return "UUID".equals(name) ? UUID_ : valueOf(name);
    }

    /** The portable type of a column, from its JDBC metadata ({@code DATA_TYPE}, {@code TYPE_NAME}). */
    public static ValueType of(int jdbcType, String typeName) {
        String name = typeName == null ? "" : typeName.toLowerCase(Locale.ROOT);
        switch (name) {
            case "uuid":
                return UUID_;
            case "json", "jsonb":
                return JSON;
            case "timestamptz", "timestamp with time zone":
                return TIMESTAMPTZ;
            case "year": // MySQL's YEAR, which the connectors report as a DATE
                return INTEGER;
            case "oid", "lo": // PostgreSQL: a large object's number (Hibernate's @Lob), or the lo module's domain
                return LARGE_OBJECT;
            default:
                break;
        }
        return switch (jdbcType) {
            case Types.BIT, Types.BOOLEAN -> BOOLEAN;
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> INTEGER;
            case Types.NUMERIC, Types.DECIMAL -> DECIMAL;
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> FLOAT;
            case Types.DATE -> DATE;
            case Types.TIME, Types.TIME_WITH_TIMEZONE -> TIME;
            case Types.TIMESTAMP -> TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> TIMESTAMPTZ;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BINARY;
            default -> STRING;
        };
    }

    // ---- JSON

    /** The value as it is written in the change log's JSON. */
    public Object toJson(Object value) {
        if (value == null) return null;
        if (infinite(value)) return isAfterAll(value) ? "infinity" : "-infinity";
        return switch (this) {
            case BOOLEAN -> (Boolean) value;
            case INTEGER -> BigDecimal.valueOf(((Number) value).longValue());
            case DECIMAL -> value instanceof Double d ? d.toString() : (BigDecimal) value;
            case FLOAT -> {
                double d = ((Number) value).doubleValue();
                // JSON numbers have no NaN, infinities or negative zero: those are written as strings.
                boolean plain = Double.isFinite(d) && !(d == 0 && 1 / d < 0);
                yield plain ? new BigDecimal(Double.toString(d)) : Double.toString(d);
            }
            case BINARY, LARGE_OBJECT -> Base64.getEncoder().encodeToString((byte[]) value);
            default -> value.toString();
        };
    }

    /** The value read back from the change log's JSON. */
    public Object fromJson(Object json) {
        if (json == null) return null;
        return switch (this) {
            case BOOLEAN -> json instanceof Boolean b ? b : parseBoolean(json);
            case INTEGER -> ((BigDecimal) number(json)).longValueExact();
            case DECIMAL -> json instanceof String s && NOT_A_NUMBER.contains(s) ? Double.valueOf(s) : number(json);
            case FLOAT -> json instanceof String s ? Double.parseDouble(s) : ((BigDecimal) json).doubleValue();
            case STRING, JSON -> json.toString();
            case DATE, TIMESTAMP, TIMESTAMPTZ -> temporal(json.toString());
            case TIME -> {
                String s = json.toString();
                try {
                    yield LocalTime.parse(s);
                } catch (java.time.format.DateTimeParseException e) {
                    if (LONG_TIME.matcher(s).matches()) yield s;
                    throw e;
                }
            }
            case BINARY, LARGE_OBJECT -> Base64.getDecoder().decode(json.toString());
            case UUID_ -> UUID.fromString(json.toString());
        };
    }

    private static final java.util.Set<String> NOT_A_NUMBER = java.util.Set.of("NaN", "Infinity", "-Infinity");
    /** A time as MySQL and PostgreSQL write one past the day's end: 24:00:00, -838:59:59.5. */
    private static final java.util.regex.Pattern LONG_TIME = java.util.regex.Pattern.compile("-?\\d{2,3}:\\d\\d:\\d\\d(\\.\\d+)?");

    /** A logged date, timestamp or timestamptz: ISO-8601, infinity, PostgreSQL's "… BC", or a MySQL zero date kept as text. */
    private Object temporal(String s) {
        boolean max = s.equals("infinity");
        if (max || s.equals("-infinity")) {
            return switch (this) {
                case DATE -> max ? LocalDate.MAX : LocalDate.MIN;
                case TIMESTAMP -> max ? LocalDateTime.MAX : LocalDateTime.MIN;
                default -> max ? OffsetDateTime.MAX : OffsetDateTime.MIN;
            };
        }
        if (s.startsWith("0000-00-00")) return s;
        boolean bc = s.endsWith(" BC");
        if (bc) s = s.substring(0, s.length() - 3);
        Object value = switch (this) {
            case DATE -> LocalDate.parse(s);
            case TIMESTAMP -> LocalDateTime.parse(s);
            default -> OffsetDateTime.parse(s);
        };
        if (!bc) return value;
        // year n BC is the proleptic year 1 - n
        return switch (this) {
            case DATE -> ((LocalDate) value).withYear(1 - ((LocalDate) value).getYear());
            case TIMESTAMP -> ((LocalDateTime) value).withYear(1 - ((LocalDateTime) value).getYear());
            default -> ((OffsetDateTime) value).withYear(1 - ((OffsetDateTime) value).getYear());
        };
    }

    /** Whether a value is a date or timestamp at infinity (PostgreSQL's infinity or -infinity). */
    public static boolean infinite(Object value) {
        return value != null && (value.equals(LocalDate.MAX) || value.equals(LocalDate.MIN) || value.equals(LocalDateTime.MAX)
                || value.equals(LocalDateTime.MIN) || value.equals(OffsetDateTime.MAX) || value.equals(OffsetDateTime.MIN));
    }

    private static boolean isAfterAll(Object value) {
        return value.equals(LocalDate.MAX) || value.equals(LocalDateTime.MAX) || value.equals(OffsetDateTime.MAX);
    }

    /** The proleptic year of a date or timestamp (0 is 1 BC), else 1. */
    public static int yearOf(Object value) {
        if (value instanceof LocalDate d) return d.getYear();
        if (value instanceof LocalDateTime t) return t.getYear();
        if (value instanceof OffsetDateTime t) return t.getYear();
        return 1;
    }

    public static boolean isTemporal(ValueType type) {
        return type == DATE || type == TIME || type == TIMESTAMP || type == TIMESTAMPTZ;
    }

    private static Boolean parseBoolean(Object json) {
        if (json instanceof BigDecimal n) return n.signum() != 0; // MySQL's tinyint(1)
        return switch (json.toString().trim().toLowerCase(Locale.ROOT)) {
            case "true", "t", "1", "yes", "y", "on" -> Boolean.TRUE;
            case "false", "f", "0", "no", "n", "off" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("Not a boolean: " + json);
        };
    }

    private static BigDecimal number(Object json) {
        return json instanceof BigDecimal d ? d : new BigDecimal(json.toString());
    }

    // ---- JDBC

    /** Reads a column of the current row as this type's Java value (null for SQL NULL). */
    public Object read(ResultSet rs, int column) throws SQLException {
        Object value = switch (this) {
            case BOOLEAN -> rs.getBoolean(column);
            case INTEGER -> rs.getLong(column);
            // pgjdbc reads a numeric NaN (or infinity) as a Double, and refuses it as a BigDecimal
            case DECIMAL -> rs.getObject(column) instanceof Double d && (d.isNaN() || d.isInfinite()) ? d : rs.getBigDecimal(column);
            // A real read as double has two values (pgjdbc's text and binary forms differ): always
            // the float, widened.
            case FLOAT -> rs.getMetaData().getColumnType(column) == Types.REAL ? (double) rs.getFloat(column)
                    : rs.getDouble(column);
            case STRING, JSON -> rs.getString(column);
            case DATE -> temporal(rs, column, LocalDate.class);
            case TIME -> temporal(rs, column, LocalTime.class);
            case TIMESTAMP -> temporal(rs, column, LocalDateTime.class);
            case TIMESTAMPTZ -> temporal(rs, column, OffsetDateTime.class);
            case BINARY, LARGE_OBJECT -> rs.getBytes(column);
            case UUID_ -> {
                Object o = rs.getObject(column);
                yield o == null || o instanceof UUID ? o : uuid(o);
            }
        };
        // temporal() is null for NULL; MariaDB's connector says wasNull for the zero dates it hands out as text
        if (isTemporal(this)) return value;
        return rs.wasNull() ? null : value;
    }

    /**
     * A date or time read as java.time, or as its text when java.time has no such value: a MySQL
     * zero date (which the connectors read as NULL or refuse), a MySQL time past 24 hours.
     */
    private static Object temporal(ResultSet rs, int column, Class<?> type) throws SQLException {
        if (type == LocalTime.class) { // MariaDB's connector wraps 838:59:59 into 22:59:59: past the day, keep the text
            String text = rs.getString(column);
            if (text == null) return null;
            if (LONG_TIME.matcher(text).matches() && (text.startsWith("-") || Integer.parseInt(text.substring(0, text.indexOf(':'))) > 23)) {
                return text;
            }
        }
        Object value;
        try {
            value = rs.getObject(column, type);
        } catch (SQLException | RuntimeException e) {
            String text = rs.getString(column);
            if (text != null && (text.startsWith("0000-00-00") || LONG_TIME.matcher(text).matches())) return text;
            throw e;
        }
        if (value != null) return value;
        String text = rs.getString(column);
        return text != null && text.startsWith("0000-00-00") ? text : null;
    }

    private static UUID uuid(Object o) {
        if (o instanceof byte[] b && b.length == 16) {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
            return new UUID(buf.getLong(), buf.getLong());
        }
        return UUID.fromString(o.toString());
    }

    /** Binds a value of this type; {@code null} binds SQL NULL. */
    public void bind(PreparedStatement ps, int index, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, sqlType);
            return;
        }
        switch (this) {
            case BOOLEAN -> ps.setBoolean(index, (Boolean) value);
            case INTEGER -> ps.setLong(index, ((Number) value).longValue());
            case DECIMAL -> {
                if (value instanceof Double d) ps.setObject(index, d.toString(), Types.OTHER); // NaN, as the server's text
                else ps.setBigDecimal(index, (BigDecimal) value);
            }
            case FLOAT -> ps.setDouble(index, ((Number) value).doubleValue());
            case STRING -> ps.setString(index, (String) value);
            case JSON -> ps.setObject(index, value.toString(), Types.OTHER);
            case BINARY, LARGE_OBJECT -> ps.setBytes(index, (byte[]) value);
            case UUID_ -> ps.setObject(index, value);
            default -> {
                if (value instanceof String text) ps.setObject(index, text, Types.OTHER); // a time past the day, a zero date
                else ps.setObject(index, value);
            }
        }
    }

    /** The JDBC type used to bind NULL. */
    public int sqlType() {
        return sqlType;
    }
}
