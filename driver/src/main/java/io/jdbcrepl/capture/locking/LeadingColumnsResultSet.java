package io.jdbcrepl.capture.locking;

import io.jdbcrepl.intercept.SqlState;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;

/**
 * The first columns of a result set, alone: the application's RETURNING items of a statement whose
 * capture also returns every column after them. A column past them is unknown, as in a result
 * without them; the rest goes to the real result set, forward only.
 */
final class LeadingColumnsResultSet implements InvocationHandler {

    private final Object target;
    private final int columns;

    private LeadingColumnsResultSet(Object target, int columns) {
        this.target = target;
        this.columns = columns;
    }

    static ResultSet of(ResultSet rs, int columns) {
        return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                new LeadingColumnsResultSet(rs, columns));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "getColumnCount":
                return columns;
            case "getType":
                return ResultSet.TYPE_FORWARD_ONLY;
            case "getMetaData":
                return Proxy.newProxyInstance(ResultSetMetaData.class.getClassLoader(),
                        new Class<?>[] {ResultSetMetaData.class},
                        new LeadingColumnsResultSet(((ResultSet) target).getMetaData(), columns));
            case "previous", "first", "last", "absolute", "relative", "beforeFirst", "afterLast":
                throw SqlState.INVALID_CURSOR_STATE.exception("The result set is TYPE_FORWARD_ONLY");
            default:
                break;
        }
        if (args != null && args.length > 0 && method.getParameterTypes()[0] == int.class && !name.equals("setFetchSize")
                && !name.equals("setFetchDirection") && !name.equals("isWrapperFor")
                && ((int) args[0] < 1 || (int) args[0] > columns)) {
            throw SqlState.INVALID_DESCRIPTOR_INDEX.exception("Column index " + args[0] + " is out of range (1 to " + columns + ")");
        }
        try {
            Object out = method.invoke(target, args);
            if (name.equals("findColumn") && (int) out > columns) {
                throw SqlState.COLUMN_NOT_FOUND.exception("No column " + args[0] + " in the result");
            }
            return out;
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
