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
    /** {@link BigDecimal} with its scale; JSON number written plainly. */
    DECIMAL(Types.NUMERIC),
    /** {@link Double} (real, double precision); JSON number, or "NaN", "Infinity", "-Infinity", "-0.0". */
    FLOAT(Types.DOUBLE),
    /** {@link String} (char, varchar, text, clob). */
    STRING(Types.VARCHAR),
    /** {@link LocalDate}; ISO-8601 string. */
    DATE(Types.DATE),
    /** {@link LocalTime}; ISO-8601 string, to the nanosecond. */
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
     * {@code io.jdbcrepl.capture.pg.LargeObjects}). Read and bound as bytes: SQL that selects or
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
        return switch (this) {
            case BOOLEAN -> (Boolean) value;
            case INTEGER -> BigDecimal.valueOf(((Number) value).longValue());
            case DECIMAL -> (BigDecimal) value;
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
            case DECIMAL -> number(json);
            case FLOAT -> json instanceof String s ? Double.parseDouble(s) : ((BigDecimal) json).doubleValue();
            case STRING, JSON -> json.toString();
            case DATE -> LocalDate.parse(json.toString());
            case TIME -> LocalTime.parse(json.toString());
            case TIMESTAMP -> LocalDateTime.parse(json.toString());
            case TIMESTAMPTZ -> OffsetDateTime.parse(json.toString());
            case BINARY, LARGE_OBJECT -> Base64.getDecoder().decode(json.toString());
            case UUID_ -> UUID.fromString(json.toString());
        };
    }

    private static Boolean parseBoolean(Object json) {
        if (json instanceof BigDecimal n) return n.signum() != 0; // MySQL's tinyint(1)
        return switch (json.toString().toLowerCase(Locale.ROOT)) {
            case "true", "t", "1" -> Boolean.TRUE;
            case "false", "f", "0" -> Boolean.FALSE;
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
            case DECIMAL -> rs.getBigDecimal(column);
            // A real read as double has two values (pgjdbc's text and binary forms differ): always
            // the float, widened.
            case FLOAT -> rs.getMetaData().getColumnType(column) == Types.REAL ? (double) rs.getFloat(column)
                    : rs.getDouble(column);
            case STRING, JSON -> rs.getString(column);
            case DATE -> rs.getObject(column, LocalDate.class);
            case TIME -> rs.getObject(column, LocalTime.class);
            case TIMESTAMP -> rs.getObject(column, LocalDateTime.class);
            case TIMESTAMPTZ -> rs.getObject(column, OffsetDateTime.class);
            case BINARY, LARGE_OBJECT -> rs.getBytes(column);
            case UUID_ -> {
                Object o = rs.getObject(column);
                yield o == null || o instanceof UUID ? o : uuid(o);
            }
        };
        return rs.wasNull() ? null : value;
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
            case DECIMAL -> ps.setBigDecimal(index, (BigDecimal) value);
            case FLOAT -> ps.setDouble(index, ((Number) value).doubleValue());
            case STRING -> ps.setString(index, (String) value);
            case JSON -> ps.setObject(index, value.toString(), Types.OTHER);
            case BINARY, LARGE_OBJECT -> ps.setBytes(index, (byte[]) value);
            case UUID_ -> ps.setObject(index, value);
            default -> ps.setObject(index, value);
        }
    }

    /** The JDBC type used to bind NULL. */
    public int sqlType() {
        return sqlType;
    }
}
