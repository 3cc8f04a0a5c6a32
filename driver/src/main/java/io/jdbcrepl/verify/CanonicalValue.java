package io.jdbcrepl.verify;

import io.jdbcrepl.lcr.ValueType;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * A value as {@code verify} compares it across vendors: one text per meaning, so that 1.0 and
 * 1.00, a timestamp with time zone at +02:00 and the same instant in UTC, MariaDB's tinyint(1)
 * and a boolean each compare equal; and the order in which keys are merged.
 */
final class CanonicalValue {

    private CanonicalValue() {
    }

    /** The canonical text of a value read with {@link ValueType#read}; null for SQL NULL. */
    static String of(ValueType type, Object value) {
        if (value == null) return null;
        return switch (type) {
            case BOOLEAN -> value.toString();
            case INTEGER -> Long.toString(((Number) value).longValue());
            case DECIMAL -> decimal((BigDecimal) value);
            // -0.0 and 0.0 are the same number to every database that stores them.
            case FLOAT -> {
                double d = ((Number) value).doubleValue();
                yield d == 0 ? "0.0" : Double.toString(d);
            }
            case TIMESTAMPTZ -> ((OffsetDateTime) value).withOffsetSameInstant(ZoneOffset.UTC).toString();
            case BINARY, LARGE_OBJECT -> Base64.getEncoder().encodeToString((byte[]) value);
            case JSON -> json(value.toString());
            default -> value.toString();
        };
    }

    /**
     * A JSON document in one text: object keys sorted, numbers by value, no white space (PostgreSQL's
     * jsonb sorts keys and MariaDB keeps the text as written); text that is not JSON stays as it is.
     */
    static String json(String text) {
        try {
            return io.jdbcrepl.lcr.Json.write(canonicalJson(io.jdbcrepl.lcr.Json.read(text)));
        } catch (RuntimeException notJson) {
            return text;
        }
    }

    private static Object canonicalJson(Object value) {
        if (value instanceof java.util.Map<?, ?> map) {
            java.util.Map<String, Object> sorted = new java.util.TreeMap<>(CanonicalValue::compareCodePoints);
            map.forEach((k, v) -> sorted.put(String.valueOf(k), canonicalJson(v)));
            return sorted;
        }
        if (value instanceof List<?> list) return list.stream().map(CanonicalValue::canonicalJson).toList();
        if (value instanceof BigDecimal d) return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        return value;
    }

    private static String decimal(BigDecimal d) {
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    /**
     * The order of keys, column by column: numbers by value, everything else by code point (how
     * PostgreSQL's "C" collation, MariaDB's binary collation and H2 order ASCII and most text);
     * each side's rows are read in this order, and a side that returns them otherwise is reported.
     */
    static Comparator<List<KeyPart>> keyOrder() {
        return (a, b) -> {
            for (int i = 0; i < a.size(); i++) {
                int c = a.get(i).compareTo(b.get(i));
                if (c != 0) return c;
            }
            return 0;
        };
    }

    /** One key column's value, typed for ordering. */
    record KeyPart(ValueType type, String text) implements Comparable<KeyPart> {

        @Override
        public int compareTo(KeyPart other) {
            if (text == null || other.text == null) return text == null ? (other.text == null ? 0 : -1) : 1;
            if (isNumber(type) && isNumber(other.type)) return new BigDecimal(text).compareTo(new BigDecimal(other.text));
            return compareCodePoints(text, other.text);
        }

        @Override
        public String toString() {
            return text == null ? "NULL" : text;
        }

        private static boolean isNumber(ValueType t) {
            return t == ValueType.INTEGER || t == ValueType.DECIMAL;
        }
    }

    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
