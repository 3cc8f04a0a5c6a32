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

/**
 * The {@link PreparedStatement} setters ({@code setX(int index, …)}) an application may call, each
 * able to bind recorded arguments again. Streams and the rarer setters are left to
 * {@link BoundParameter}'s reflection (found by name and argument types); the rest bind directly.
 */
public enum Setter {
    SET_NULL("setNull"),
    SET_BOOLEAN("setBoolean"),
    SET_BYTE("setByte"),
    SET_SHORT("setShort"),
    SET_INT("setInt"),
    SET_LONG("setLong"),
    SET_FLOAT("setFloat"),
    SET_DOUBLE("setDouble"),
    SET_BIG_DECIMAL("setBigDecimal"),
    SET_STRING("setString"),
    SET_NSTRING("setNString"),
    SET_BYTES("setBytes"),
    SET_DATE("setDate"),
    SET_TIME("setTime"),
    SET_TIMESTAMP("setTimestamp"),
    SET_OBJECT("setObject"),
    SET_BLOB("setBlob"),
    SET_CLOB("setClob"),
    SET_ARRAY("setArray"),
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

    Setter(String methodName) {
        this.methodName = methodName;
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
     * Calls this setter on {@code s} at {@code i} with {@code a} (the arguments after the index);
     * false, binding nothing, when they need the method found by reflection.
     */
    boolean bindDirectly(PreparedStatement s, int i, Object[] a) throws SQLException {
        switch (this) {
            case SET_NULL -> {
                if (a.length == 1) s.setNull(i, (Integer) a[0]);
                else s.setNull(i, (Integer) a[0], (String) a[1]);
            }
            case SET_BOOLEAN -> s.setBoolean(i, (Boolean) a[0]);
            case SET_BYTE -> s.setByte(i, (Byte) a[0]);
            case SET_SHORT -> s.setShort(i, (Short) a[0]);
            case SET_INT -> s.setInt(i, (Integer) a[0]);
            case SET_LONG -> s.setLong(i, (Long) a[0]);
            case SET_FLOAT -> s.setFloat(i, (Float) a[0]);
            case SET_DOUBLE -> s.setDouble(i, (Double) a[0]);
            case SET_BIG_DECIMAL -> s.setBigDecimal(i, (BigDecimal) a[0]);
            case SET_STRING -> s.setString(i, (String) a[0]);
            case SET_NSTRING -> s.setNString(i, (String) a[0]);
            case SET_BYTES -> s.setBytes(i, (byte[]) a[0]);
            case SET_DATE -> {
                if (a.length == 1) s.setDate(i, (Date) a[0]);
                else s.setDate(i, (Date) a[0], (Calendar) a[1]);
            }
            case SET_TIME -> {
                if (a.length == 1) s.setTime(i, (Time) a[0]);
                else s.setTime(i, (Time) a[0], (Calendar) a[1]);
            }
            case SET_TIMESTAMP -> {
                if (a.length == 1) s.setTimestamp(i, (Timestamp) a[0]);
                else s.setTimestamp(i, (Timestamp) a[0], (Calendar) a[1]);
            }
            case SET_OBJECT -> bindObject(s, i, a);
            case SET_BLOB -> { // setBlob(int, InputStream[, long]): by reflection
                if (!(a[0] instanceof Blob b)) return false;
                s.setBlob(i, b);
            }
            case SET_CLOB -> { // setClob(int, Reader[, long]): by reflection
                if (!(a[0] instanceof Clob c)) return false;
                s.setClob(i, c);
            }
            case SET_ARRAY -> s.setArray(i, (Array) a[0]);
            default -> {
                return false;
            }
        }
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
}
