package io.jdbcrepl.intercept;

import java.io.InputStream;
import java.io.Reader;
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
import java.util.Arrays;
import java.util.Calendar;

/**
 * One parameter the application bound: the setter it called and the arguments after the index,
 * recorded as given so that it can be bound again, to the same or another statement.
 */
public record BoundParameter(int index, Setter setter, Object[] arguments) {

    public BoundParameter {
        arguments = arguments.clone();
    }

    /** The bound value (the setter's first argument after the index; null for setNull). */
    public Object value() {
        return setter == Setter.SET_NULL || arguments.length == 0 ? null : arguments[0];
    }

    @Override
    public Object[] arguments() {
        return arguments.clone();
    }

    /** Binds this value to {@code statement} at {@code targetIndex} with the same setter. */
    public void bindTo(PreparedStatement statement, int targetIndex) throws SQLException {
        Object[] a = arguments;
        switch (setter) {
            case SET_NULL -> {
                if (a.length == 1) statement.setNull(targetIndex, (Integer) a[0]);
                else statement.setNull(targetIndex, (Integer) a[0], (String) a[1]);
            }
            case SET_BOOLEAN -> statement.setBoolean(targetIndex, (Boolean) a[0]);
            case SET_BYTE -> statement.setByte(targetIndex, (Byte) a[0]);
            case SET_SHORT -> statement.setShort(targetIndex, (Short) a[0]);
            case SET_INT -> statement.setInt(targetIndex, (Integer) a[0]);
            case SET_LONG -> statement.setLong(targetIndex, (Long) a[0]);
            case SET_FLOAT -> statement.setFloat(targetIndex, (Float) a[0]);
            case SET_DOUBLE -> statement.setDouble(targetIndex, (Double) a[0]);
            case SET_BIG_DECIMAL -> statement.setBigDecimal(targetIndex, (BigDecimal) a[0]);
            case SET_STRING -> statement.setString(targetIndex, (String) a[0]);
            case SET_NSTRING -> statement.setNString(targetIndex, (String) a[0]);
            case SET_BYTES -> statement.setBytes(targetIndex, (byte[]) a[0]);
            case SET_DATE -> {
                if (a.length == 1) statement.setDate(targetIndex, (Date) a[0]);
                else statement.setDate(targetIndex, (Date) a[0], (Calendar) a[1]);
            }
            case SET_TIME -> {
                if (a.length == 1) statement.setTime(targetIndex, (Time) a[0]);
                else statement.setTime(targetIndex, (Time) a[0], (Calendar) a[1]);
            }
            case SET_TIMESTAMP -> {
                if (a.length == 1) statement.setTimestamp(targetIndex, (Timestamp) a[0]);
                else statement.setTimestamp(targetIndex, (Timestamp) a[0], (Calendar) a[1]);
            }
            case SET_OBJECT -> bindObject(statement, targetIndex, a);
            case SET_BLOB -> {
                if (a[0] instanceof Blob b) statement.setBlob(targetIndex, b);
                else bindReflectively(statement, targetIndex);
            }
            case SET_CLOB -> {
                if (a[0] instanceof Clob c) statement.setClob(targetIndex, c);
                else bindReflectively(statement, targetIndex);
            }
            case SET_ARRAY -> statement.setArray(targetIndex, (Array) a[0]);
            default -> bindReflectively(statement, targetIndex);
        }
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

    /** Streams and the rarer setters: found by name and argument types. */
    private void bindReflectively(PreparedStatement statement, int targetIndex) throws SQLException {
        for (var method : PreparedStatement.class.getMethods()) {
            if (!method.getName().equals(setter.methodName()) || method.getParameterCount() != arguments.length + 1) continue;
            Class<?>[] types = method.getParameterTypes();
            if (types[0] != int.class || !argumentsFit(types)) continue;
            Object[] call = new Object[arguments.length + 1];
            call[0] = targetIndex;
            System.arraycopy(arguments, 0, call, 1, arguments.length);
            try {
                method.invoke(statement, call);
                return;
            } catch (ReflectiveOperationException e) {
                if (e.getCause() instanceof SQLException sql) throw sql;
                throw SqlState.GENERAL_ERROR.exception("Could not re-bind parameter " + index + " with " + setter, e);
            }
        }
        throw new SQLException("Cannot re-bind parameter " + index + " set with " + setter
                + Arrays.toString(typeNames()), SqlState.REFUSED.code());
    }

    private boolean argumentsFit(Class<?>[] types) {
        for (int i = 0; i < arguments.length; i++) {
            Class<?> type = types[i + 1];
            Object arg = arguments[i];
            if (arg == null) {
                if (type.isPrimitive()) return false;
            } else if (!box(type).isInstance(arg)) {
                return false;
            }
        }
        return true;
    }

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) return type;
        if (type == int.class) return Integer.class;
        if (type == long.class) return Long.class;
        if (type == boolean.class) return Boolean.class;
        if (type == double.class) return Double.class;
        if (type == float.class) return Float.class;
        if (type == short.class) return Short.class;
        if (type == byte.class) return Byte.class;
        return Character.class;
    }

    private String[] typeNames() {
        return Arrays.stream(arguments).map(a -> a == null ? "null" : a.getClass().getSimpleName()).toArray(String[]::new);
    }

    /** Whether the value is a stream or reader, which can be consumed only once. */
    public boolean isStream() {
        return arguments.length > 0 && (arguments[0] instanceof InputStream || arguments[0] instanceof Reader);
    }

    @Override
    public String toString() {
        Object v = value();
        String shown = v instanceof byte[] b ? "byte[" + b.length + "]" : String.valueOf(v);
        return index + ":" + setter + "(" + shown + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BoundParameter p && p.index == index && p.setter == setter
                && Arrays.deepEquals(p.arguments, arguments);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * index + setter.methodName().hashCode()) + Arrays.deepHashCode(arguments);
    }
}
