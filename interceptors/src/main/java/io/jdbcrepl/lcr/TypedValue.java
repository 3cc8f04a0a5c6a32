package io.jdbcrepl.lcr;

import java.util.Arrays;
import java.util.Objects;

/** A column value with its portable type; {@code value} null is SQL NULL. */
public record TypedValue(ValueType type, Object value) {

    public TypedValue {
        Objects.requireNonNull(type, "type");
    }

    public boolean isNull() {
        return value == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TypedValue t && t.type == type && Objects.deepEquals(t.value, value);
    }

    @Override
    public int hashCode() {
        return 31 * type.hashCode() + (value instanceof byte[] b ? Arrays.hashCode(b) : Objects.hashCode(value));
    }

    @Override
    public String toString() {
        if (value instanceof byte[] b) return type.logName() + ":byte[" + b.length + "]";
        return type.logName() + ":" + value;
    }
}
