package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.UUID;

/**
 * A logged value bound to a destination column, converted when the destination's portable type
 * differs from the logged one (a PostgreSQL {@code timestamptz} arriving in a MariaDB
 * {@code TIMESTAMP}, a {@code uuid} in a {@code CHAR(36)}). Same type, same value: lossless.
 */
final class ValueBinding {

    private ValueBinding() {
    }

    /** The value as the destination type's Java value. */
    static Object convert(TypedValue v, ValueType dest) {
        Object value = v.value();
        ValueType from = v.type();
        if (value == null || from == dest) return value;
        try {
            return switch (dest) {
                case LARGE_OBJECT -> largeObject(v);
                case STRING, JSON -> from == ValueType.LARGE_OBJECT ? utf8((byte[]) value)
                        : from == ValueType.BINARY ? Base64.getEncoder().encodeToString((byte[]) value)
                        : from.toJson(value).toString();
                case INTEGER -> value instanceof Boolean b ? (b ? 1L : 0L) : decimal(value).longValueExact();
                case DECIMAL -> value instanceof Boolean b ? BigDecimal.valueOf(b ? 1 : 0) : decimal(value);
                case FLOAT -> value instanceof Boolean b ? (b ? 1d : 0d) : decimal(value).doubleValue();
                case BOOLEAN -> value instanceof Number n ? decimal(n).signum() != 0 : parseBoolean(value.toString());
                case TIMESTAMP -> value instanceof OffsetDateTime o ? o.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()
                        : LocalDateTime.parse(value.toString());
                case TIMESTAMPTZ -> value instanceof LocalDateTime l ? l.atOffset(ZoneOffset.UTC) : OffsetDateTime.parse(value.toString());
                case UUID_ -> UUID.fromString(value.toString());
                case BINARY -> value instanceof String s ? s.getBytes(StandardCharsets.UTF_8)
                        : value instanceof byte[] b ? b : dest.fromJson(from.toJson(value));
                default -> dest.fromJson(from.toJson(value));
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("The value " + v + " cannot be stored as " + dest.logName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The bytes of a large object: bytes as they are, text as UTF-8 (a MariaDB LONGTEXT, or a
     * Hibernate {@code @Lob String}, whose PostgreSQL object pgjdbc writes as UTF-8). A number is
     * refused: it would name an object of the source database, not one here.
     */
    private static byte[] largeObject(TypedValue v) {
        return switch (v.type()) {
            case BINARY -> (byte[]) v.value();
            case STRING, JSON -> v.value().toString().getBytes(StandardCharsets.UTF_8);
            default -> throw new IllegalArgumentException("a large object column takes bytes or text, not a "
                    + v.type().logName() + " (a large object's number names nothing on another database)");
        };
    }

    /** A large object's bytes as text (a Hibernate {@code @Lob String}): strict UTF-8, else refused. */
    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("a large object of " + bytes.length + " bytes is not UTF-8 text: store it"
                    + " in a binary column (BLOB, bytea)");
        }
    }

    private static BigDecimal decimal(Object value) {
        if (value instanceof BigDecimal d) return d;
        if (value instanceof Long l) return BigDecimal.valueOf(l);
        if (value instanceof Double d) return BigDecimal.valueOf(d);
        return new BigDecimal(value.toString());
    }

    private static boolean parseBoolean(String s) {
        return (Boolean) ValueType.BOOLEAN.fromJson(s);
    }

    /**
     * Refuses, with the reason, a value that {@code dest} on this dialect cannot hold (PostgreSQL's
     * infinities, NaN and BC dates on the MySQL family, MySQL's zero dates on the others) rather
     * than letting the database store something else.
     */
    static void check(TypedValue v, ValueType dest, Dialect dialect) {
        Object value = convert(v, dest);
        String refused = dialect.part(ApplyValues.class).refusal(value, dest);
        if (refused != null) {
            throw new IllegalArgumentException("The value " + v.type().logName() + ":" + v.type().toJson(v.value()) + " is " + refused + ", which " + dialect
                    + " cannot store in a " + dest.logName() + " column");
        }
    }

    /** Binds {@code v} for a destination column of type {@code dest}, the database's way ({@link ApplyValues#bind}). */
    static void bind(PreparedStatement ps, int index, TypedValue v, ValueType dest, Dialect dialect) throws SQLException {
        dialect.part(ApplyValues.class).bind(ps, index, convert(v, dest), dest);
    }
}
