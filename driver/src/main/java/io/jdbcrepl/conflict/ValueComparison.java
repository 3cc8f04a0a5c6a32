package io.jdbcrepl.conflict;

import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How two column values are compared for conflict detection (SPEC 5.1) and by MAXIMUM, MINIMUM
 * and DELTA (SPEC 5.3). The values may come from different vendors, so a value is compared by
 * what it means, not by how it is represented:
 *
 * <ul>
 *   <li>SQL NULL equals NULL and nothing else.
 *   <li>Numbers (INTEGER, DECIMAL, FLOAT) by value across the three types: 1.0 = 1.00, INTEGER 5 =
 *       DECIMAL 5.0. A FLOAT is taken as its shortest decimal form ({@link Double#toString}), so
 *       FLOAT 0.1 = DECIMAL 0.1. -0.0 = 0.0 (SQL compares numbers, and MariaDB cannot store -0.0);
 *       NaN = NaN and each infinity equals itself (PostgreSQL's ordering of float8), never a
 *       DECIMAL. A BOOLEAN equals the numbers 1 (true) and 0 (false): MySQL's BOOLEAN is tinyint(1).
 *   <li>TIMESTAMPTZ by instant (10:00+02:00 = 08:00Z); DATE, TIME, TIMESTAMP by their local value.
 *       A TIMESTAMPTZ never equals a TIMESTAMP: without a zone the instant is unknown, and a false
 *       conflict is safer than a silently lost change.
 *   <li>BINARY by content.
 *   <li>STRING exactly, trailing spaces included; {@link #samePadded} ignores trailing spaces,
 *       for a CHAR(n) column (PostgreSQL returns it padded, MariaDB trimmed: SQL's PAD SPACE).
 *       The detector uses it for the columns the table settings name as fixed-length.
 *   <li>UUID equals the STRING of its canonical form in any case (MariaDB before 10.7 has no
 *       uuid type); JSON by its parsed document (object key order and white space do not matter,
 *       numbers by value), also against a STRING holding JSON.
 *   <li>Any other pair of types: different.
 * </ul>
 *
 * Ordering ({@link #compare}) exists for numbers, BOOLEAN (false &lt; true), STRING (by UTF-16
 * code unit, not by the database's collation), UUID (as its string), DATE, TIME, TIMESTAMP and
 * TIMESTAMPTZ (by instant); BINARY and JSON have none.
 */
public final class ValueComparison {

    private ValueComparison() {}

    /** Whether the two values mean the same; both must be present (a TypedValue, maybe of NULL). */
    public static boolean same(TypedValue a, TypedValue b) {
        if (a.isNull() || b.isNull()) {
            return a.isNull() && b.isNull();
        }
        Object x = a.value();
        Object y = b.value();
        ValueType s = a.type();
        ValueType t = b.type();
        if (isNumeric(s) && isNumeric(t)) {
            return sameNumber(x, s, y, t);
        }
        if (isBytes(s) && isBytes(t)) {
            return Arrays.equals((byte[]) x, (byte[]) y); // a large object's content against a BLOB's
        }
        if (s == t) {
            return switch (s) {
                case TIMESTAMPTZ -> ((OffsetDateTime) x).isEqual((OffsetDateTime) y);
                case JSON -> sameJson(x.toString(), y.toString());
                default -> x.equals(y);
            };
        }
        if (is(s, t, ValueType.UUID_, ValueType.STRING)) {
            return x.toString().toLowerCase(Locale.ROOT).equals(y.toString().toLowerCase(Locale.ROOT));
        }
        if (is(s, t, ValueType.JSON, ValueType.STRING)) {
            return sameJson(x.toString(), y.toString());
        }
        return false;
    }

    private static boolean isBytes(ValueType type) {
        return type == ValueType.BINARY || type == ValueType.LARGE_OBJECT;
    }

    /** As {@link #same}, with trailing spaces of strings ignored (a CHAR(n) column). */
    public static boolean samePadded(TypedValue a, TypedValue b) {
        if (a.type() == ValueType.STRING && b.type() == ValueType.STRING && !a.isNull() && !b.isNull()) {
            return stripTrailing((String) a.value()).equals(stripTrailing((String) b.value()));
        }
        return same(a, b);
    }

    /**
     * The order of two non-NULL values, for MAXIMUM and MINIMUM; empty when they have no common
     * order (different families, BINARY, JSON, NULL, or NaN against a number).
     */
    public static Optional<Integer> compare(TypedValue a, TypedValue b) {
        if (a.isNull() || b.isNull()) {
            return Optional.empty();
        }
        Object x = a.value();
        Object y = b.value();
        ValueType s = a.type();
        ValueType t = b.type();
        if (isNumeric(s) && isNumeric(t)) {
            if (isNaN(x, s) || isNaN(y, t)) {
                return isNaN(x, s) && isNaN(y, t) ? Optional.of(0) : Optional.empty();
            }
            if (isInfinite(x, s) || isInfinite(y, t)) {
                return Optional.of(Double.compare(asDouble(x, s), asDouble(y, t)));
            }
            return Optional.of(Integer.signum(decimal(x, s).compareTo(decimal(y, t))));
        }
        if (s != t) {
            if (is(s, t, ValueType.UUID_, ValueType.STRING)) {
                return Optional.of(Integer.signum(x.toString().toLowerCase(Locale.ROOT)
                        .compareTo(y.toString().toLowerCase(Locale.ROOT))));
            }
            return Optional.empty();
        }
        int c = switch (s) {
            case STRING -> ((String) x).compareTo((String) y);
            case UUID_ -> x.toString().compareTo(y.toString());
            case DATE -> ((LocalDate) x).compareTo((LocalDate) y);
            case TIME -> ((LocalTime) x).compareTo((LocalTime) y);
            case TIMESTAMP -> ((LocalDateTime) x).compareTo((LocalDateTime) y);
            case TIMESTAMPTZ -> ((OffsetDateTime) x).toInstant().compareTo(((OffsetDateTime) y).toInstant());
            default -> Integer.MIN_VALUE;
        };
        return c == Integer.MIN_VALUE ? Optional.empty() : Optional.of(Integer.signum(c));
    }

    /**
     * DELTA's arithmetic: {@code destination + (newValue - oldValue)}, in the destination's type
     * (so that it binds as the column's own type); empty when a value is NULL, is not a number, or
     * the result does not fit (an INTEGER overflow, a FLOAT that is not finite).
     */
    public static Optional<TypedValue> delta(TypedValue destination, TypedValue oldValue, TypedValue newValue) {
        if (destination.isNull() || oldValue.isNull() || newValue.isNull()) {
            return Optional.empty();
        }
        ValueType d = destination.type();
        if (!isNumeric(d) || d == ValueType.BOOLEAN || !isNumeric(oldValue.type()) || !isNumeric(newValue.type())
                || oldValue.type() == ValueType.BOOLEAN || newValue.type() == ValueType.BOOLEAN) {
            return Optional.empty();
        }
        if (d == ValueType.FLOAT) {
            double r = asDouble(destination.value(), d)
                    + (asDouble(newValue.value(), newValue.type()) - asDouble(oldValue.value(), oldValue.type()));
            return Double.isFinite(r) ? Optional.of(new TypedValue(d, r)) : Optional.empty();
        }
        if (!finite(destination) || !finite(oldValue) || !finite(newValue)) {
            return Optional.empty();
        }
        BigDecimal r = decimal(destination.value(), d)
                .add(decimal(newValue.value(), newValue.type()).subtract(decimal(oldValue.value(), oldValue.type())));
        if (d == ValueType.INTEGER) {
            try {
                return Optional.of(new TypedValue(d, r.longValueExact()));
            } catch (ArithmeticException e) {
                return Optional.empty(); // a fraction or beyond bigint
            }
        }
        return Optional.of(new TypedValue(d, r));
    }

    /** Whether DELTA can work on a column of this type. */
    public static boolean isDeltaType(ValueType type) {
        return type == ValueType.INTEGER || type == ValueType.DECIMAL || type == ValueType.FLOAT;
    }

    // ---- numbers

    private static boolean isNumeric(ValueType t) {
        return t == ValueType.INTEGER || t == ValueType.DECIMAL || t == ValueType.FLOAT || t == ValueType.BOOLEAN;
    }

    private static boolean sameNumber(Object x, ValueType s, Object y, ValueType t) {
        boolean xf = !finiteValue(x, s);
        boolean yf = !finiteValue(y, t);
        if (xf || yf) {
            // NaN = NaN, +inf = +inf, -inf = -inf; none of them equals a finite number
            return xf && yf && Double.compare(asDouble(x, s), asDouble(y, t)) == 0;
        }
        return decimal(x, s).compareTo(decimal(y, t)) == 0;
    }

    private static boolean finite(TypedValue v) {
        return finiteValue(v.value(), v.type());
    }

    private static boolean finiteValue(Object x, ValueType t) {
        return t != ValueType.FLOAT || Double.isFinite(((Number) x).doubleValue());
    }

    private static boolean isNaN(Object x, ValueType t) {
        return t == ValueType.FLOAT && Double.isNaN(((Number) x).doubleValue());
    }

    private static boolean isInfinite(Object x, ValueType t) {
        return t == ValueType.FLOAT && Double.isInfinite(((Number) x).doubleValue());
    }

    private static double asDouble(Object x, ValueType t) {
        return t == ValueType.BOOLEAN ? (((Boolean) x) ? 1 : 0) : ((Number) x).doubleValue();
    }

    /** A finite number as a BigDecimal; -0.0 becomes 0. */
    private static BigDecimal decimal(Object x, ValueType t) {
        return switch (t) {
            case BOOLEAN -> ((Boolean) x) ? BigDecimal.ONE : BigDecimal.ZERO;
            case INTEGER -> BigDecimal.valueOf(((Number) x).longValue());
            case DECIMAL -> (BigDecimal) x;
            default -> new BigDecimal(Double.toString(((Number) x).doubleValue()));
        };
    }

    // ---- the rest

    private static boolean is(ValueType s, ValueType t, ValueType a, ValueType b) {
        return (s == a && t == b) || (s == b && t == a);
    }

    private static boolean sameJson(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        try {
            return jsonEquals(Json.read(a), Json.read(b));
        } catch (RuntimeException e) {
            return false; // not JSON: the texts differ
        }
    }

    /** Parsed JSON equality with numbers by value (Json reads them as BigDecimal). */
    private static boolean jsonEquals(Object a, Object b) {
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        if (a instanceof java.util.Map<?, ?> x && b instanceof java.util.Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) {
                return false;
            }
            for (Object k : x.keySet()) {
                if (!jsonEquals(x.get(k), y.get(k))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof java.util.List<?> x && b instanceof java.util.List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!jsonEquals(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return java.util.Objects.equals(a, b);
    }

    private static String stripTrailing(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }
}
