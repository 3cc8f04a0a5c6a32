package io.jdbcrepl.capture;

import io.jdbcrepl.intercept.SqlState;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * Result sets of the same columns read one after the other as one forward-only result: the
 * generated keys of a batch, entry after entry, as pgjdbc returns them. Getters go to the part the
 * cursor is in; closing closes every part.
 */
public final class ConcatenatedResultSet implements InvocationHandler {

    private static final Set<String> SCROLLING = Set.of("previous", "first", "last", "absolute", "relative",
            "beforeFirst", "afterLast");

    private final List<ResultSet> parts;
    private int current;
    /** Rows in the parts before the current one, for getRow(). */
    private int rowsBefore;
    private boolean closed;

    private ConcatenatedResultSet(List<ResultSet> parts) {
        this.parts = List.copyOf(parts);
    }

    /** @param parts at least one */
    public static ResultSet of(List<ResultSet> parts) {
        if (parts.size() == 1) return parts.get(0);
        return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                new ConcatenatedResultSet(parts));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        switch (name) {
            case "next":
                return next();
            case "close":
                close();
                return null;
            case "isClosed":
                return closed;
            case "getType":
                return ResultSet.TYPE_FORWARD_ONLY;
            case "getRow":
                int row = parts.get(current).getRow();
                return row == 0 ? 0 : rowsBefore + row;
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "ConcatenatedResultSet" + parts;
            default:
                if (SCROLLING.contains(name)) {
                    throw SqlState.INVALID_CURSOR_STATE.exception(
                            "Operation requires a scrollable ResultSet, but this ResultSet is FORWARD_ONLY.");
                }
                try {
                    return method.invoke(parts.get(current), args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
        }
    }

    private boolean next() throws SQLException {
        while (true) {
            ResultSet part = parts.get(current);
            if (part.next()) return true;
            if (current == parts.size() - 1) return false;
            part.last();
            rowsBefore += part.getRow();
            current++;
        }
    }

    private void close() throws SQLException {
        closed = true;
        SQLException failure = null;
        for (ResultSet part : parts) {
            try {
                part.close();
            } catch (SQLException e) {
                if (failure == null) failure = e;
                else failure.addSuppressed(e);
            }
        }
        if (failure != null) throw failure;
    }
}
