package io.jdbcrepl.lcr;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values of some columns of one row (an LCR's old or new values), in column order, with the
 * JSON form the change log keeps: {@code {"id":1,"salary":4900.00}} and the types apart,
 * {@code {"id":"INTEGER","salary":"DECIMAL"}}.
 */
public final class RowImage {

    private final LinkedHashMap<String, TypedValue> values;

    public RowImage() {
        this.values = new LinkedHashMap<>();
    }

    public RowImage(Map<String, TypedValue> values) {
        this.values = new LinkedHashMap<>(values);
    }

    public RowImage put(String column, ValueType type, Object value) {
        values.put(column, new TypedValue(type, value));
        return this;
    }

    public RowImage put(String column, TypedValue value) {
        values.put(column, value);
        return this;
    }

    public TypedValue get(String column) {
        return values.get(column);
    }

    public boolean has(String column) {
        return values.containsKey(column);
    }

    public TypedValue remove(String column) {
        return values.remove(column);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public int size() {
        return values.size();
    }

    /** Column name to value, in column order; read-only. */
    public Map<String, TypedValue> asMap() {
        return Collections.unmodifiableMap(values);
    }

    /** {@code {"col":value,…}}. */
    public String valuesJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        values.forEach((column, v) -> json.put(column, v.type().toJson(v.value())));
        return Json.write(json);
    }

    /** {@code {"col":"TYPE",…}}. */
    public String typesJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        values.forEach((column, v) -> json.put(column, v.type().logName()));
        return Json.write(json);
    }

    /** Reads an image back; every column of {@code valuesJson} must have a type in {@code types}. */
    public static RowImage fromJson(String valuesJson, Map<String, ValueType> types) {
        RowImage image = new RowImage();
        Map<String, Object> json = Json.readObject(valuesJson);
        if (json == null) return image;
        json.forEach((column, raw) -> {
            ValueType type = types.get(column);
            if (type == null) throw new IllegalArgumentException("No type logged for column " + column);
            image.put(column, type, type.fromJson(raw));
        });
        return image;
    }

    /** Reads a types object: {@code {"col":"TYPE"}}. */
    public static Map<String, ValueType> typesFromJson(String typesJson) {
        Map<String, ValueType> types = new LinkedHashMap<>();
        Map<String, Object> json = Json.readObject(typesJson);
        if (json != null) json.forEach((column, name) -> types.put(column, ValueType.ofLogName(name.toString())));
        return types;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowImage r && r.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
