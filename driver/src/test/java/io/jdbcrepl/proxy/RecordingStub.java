package io.jdbcrepl.proxy;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A JDBC object that records every call made to it and answers with harmless values. */
final class RecordingStub {

    record Call(Method method, Object[] args) {
        @Override
        public String toString() {
            return method.getName() + Arrays.toString(args);
        }
    }

    final List<Call> calls = new ArrayList<>();

    @SuppressWarnings("unchecked")
    <T> T create(Class<T> type) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            switch (method.getName()) {
                case "hashCode" -> { return System.identityHashCode(proxy); }
                case "equals" -> { return proxy == args[0]; }
                case "toString" -> { return "stub " + type.getSimpleName(); }
                default -> { }
            }
            calls.add(new Call(method, args == null ? new Object[0] : args));
            return answer(method.getReturnType());
        });
    }

    private Object answer(Class<?> type) {
        if (type == void.class) return null;
        if (type == boolean.class) return false;
        if (type == int.class) return 0;
        if (type == long.class) return 0L;
        if (type == short.class) return (short) 0;
        if (type == byte.class) return (byte) 0;
        if (type == float.class) return 0f;
        if (type == double.class) return 0d;
        if (type == char.class) return (char) 0;
        if (type == int[].class) return new int[0];
        if (type == long[].class) return new long[0];
        if (type == Connection.class || type == Statement.class || type == ResultSet.class
                || type == DatabaseMetaData.class || java.sql.PreparedStatement.class == type
                || java.sql.CallableStatement.class == type) {
            return create(type);
        }
        return null;
    }
}
