package io.jdbcrepl.intercept;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.function.Predicate;

/**
 * The {@link PreparedStatement} setters ({@code setX(int index, …)}) an application may call, each
 * able to bind recorded arguments again. Streams and the rarer setters are left to
 * {@link BoundParameter}'s reflection (found by name and argument types); the rest bind directly.
 */
public enum Setter {
    SET_NULL("setNull", (s, i, a) -> {
        if (a.length == 1) s.setNull(i, (Integer) a[0]);
        else s.setNull(i, (Integer) a[0], (String) a[1]);
    }),
    SET_BOOLEAN("setBoolean", (s, i, a) -> s.setBoolean(i, (Boolean) a[0])),
    SET_BYTE("setByte", (s, i, a) -> s.setByte(i, (Byte) a[0])),
    SET_SHORT("setShort", (s, i, a) -> s.setShort(i, (Short) a[0])),
    SET_INT("setInt", (s, i, a) -> s.setInt(i, (Integer) a[0])),
    SET_LONG("setLong", (s, i, a) -> s.setLong(i, (Long) a[0])),
    SET_FLOAT("setFloat", (s, i, a) -> s.setFloat(i, (Float) a[0])),
    SET_DOUBLE("setDouble", (s, i, a) -> s.setDouble(i, (Double) a[0])),
    SET_BIG_DECIMAL("setBigDecimal", (s, i, a) -> s.setBigDecimal(i, (BigDecimal) a[0])),
    SET_STRING("setString", (s, i, a) -> s.setString(i, (String) a[0])),
    SET_NSTRING("setNString", (s, i, a) -> s.setNString(i, (String) a[0])),
    SET_BYTES("setBytes", (s, i, a) -> s.setBytes(i, (byte[]) a[0])),
    SET_DATE("setDate", (s, i, a) -> {
        if (a.length == 1) s.setDate(i, (Date) a[0]);
        else s.setDate(i, (Date) a[0], (Calendar) a[1]);
    }),
    SET_TIME("setTime", (s, i, a) -> {
        if (a.length == 1) s.setTime(i, (Time) a[0]);
        else s.setTime(i, (Time) a[0], (Calendar) a[1]);
    }),
    SET_TIMESTAMP("setTimestamp", (s, i, a) -> {
        if (a.length == 1) s.setTimestamp(i, (Timestamp) a[0]);
        else s.setTimestamp(i, (Timestamp) a[0], (Calendar) a[1]);
    }),
    SET_OBJECT("setObject", Setter::bindObject),
    // setBlob/setClob(int, InputStream/Reader[, long]): by reflection
    SET_BLOB("setBlob", a -> a[0] instanceof Blob, (s, i, a) -> s.setBlob(i, (Blob) a[0])),
    SET_CLOB("setClob", a -> a[0] instanceof Clob, (s, i, a) -> s.setClob(i, (Clob) a[0])),
    SET_ARRAY("setArray", (s, i, a) -> s.setArray(i, (Array) a[0])),
    SET_ASCII_STREAM("setAsciiStream"),
    SET_BINARY_STREAM("setBinaryStream"),
    SET_UNICODE_STREAM("setUnicodeStream"),
    SET_CHARACTER_STREAM("setCharacterStream"),
    SET_NCHARACTER_STREAM("setNCharacterStream"),
    SET_NCLOB("setNClob"),
    SET_REF("setRef"),
    SET_ROW_ID("setRowId"),
    SET_SQLXML("setSQLXML"),
    SET_URL("setURL");

    private final String methodName;
    /** Whether the arguments are bound by {@link #binding} rather than by reflection. */
    private final Predicate<Object[]> direct;
    private final Binding binding;

    /** A setter bound by reflection. */
    Setter(String methodName) {
        this(methodName, a -> false, null);
    }

    Setter(String methodName, Binding binding) {
        this(methodName, a -> true, binding);
    }

    Setter(String methodName, Predicate<Object[]> direct, Binding binding) {
        this.methodName = methodName;
        this.direct = direct;
        this.binding = binding;
    }

    /** The setter called {@code methodName}; IllegalArgumentException for a method that is not one. */
    public static Setter named(String methodName) {
        for (Setter setter : values()) {
            if (setter.methodName.equals(methodName)) return setter;
        }
        throw new IllegalArgumentException("Not a PreparedStatement setter: " + methodName);
    }

    public String methodName() {
        return methodName;
    }

    /** The method's name, as in messages and {@link BoundParameter#toString()}. */
    @Override
    public String toString() {
        return methodName;
    }

    /**
     * Calls this setter on {@code statement} at {@code index} with {@code arguments} (those after the
     * index); false, binding nothing, when they need the method found by reflection.
     */
    boolean bindDirectly(PreparedStatement statement, int index, Object[] arguments) throws SQLException {
        if (!direct.test(arguments)) return false;
        binding.bind(statement, index, arguments);
        return true;
    }

    private static void bindObject(PreparedStatement statement, int index, Object[] a) throws SQLException {
        if (a.length == 1) {
            statement.setObject(index, a[0]);
        } else if (a[1] instanceof SQLType type) {
            if (a.length == 2) statement.setObject(index, a[0], type);
            else statement.setObject(index, a[0], type, (Integer) a[2]);
        } else if (a.length == 2) {
            statement.setObject(index, a[0], (Integer) a[1]);
        } else {
            statement.setObject(index, a[0], (Integer) a[1], (Integer) a[2]);
        }
    }

    private interface Binding {
        void bind(PreparedStatement statement, int index, Object[] arguments) throws SQLException;
    }
}
