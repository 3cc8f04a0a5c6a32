package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.intercept.SqlState;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * pgjdbc's notifications, reached by reflection through the connection's own class loader: pgjdbc
 * may live in a loader this driver cannot see (an application server's, the command line's
 * {@code lib/} folder), and a compiled reference to {@code PGConnection} would fail to link there.
 */
final class PgNotifications {

    private static final ClassValue<Method> GET_NOTIFICATIONS = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> connectionClass) {
            try {
                Class<?> api = Class.forName("org.postgresql.PGConnection", false, connectionClass.getClassLoader());
                return api.getMethod("getNotifications", int.class);
            } catch (ReflectiveOperationException e) {
                return null;
            }
        }
    };

    private PgNotifications() {
    }

    /** Blocks until a notification arrives or {@code millis} pass. */
    static void await(Connection connection, long millis) throws SQLException, InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException();
        Method getNotifications = GET_NOTIFICATIONS.get(connection.getClass());
        if (getNotifications == null) {
            throw SqlState.REFUSED.exception("The PostgreSQL source connection " + connection.getClass().getName()
                    + " is not pgjdbc's: cannot wait for NOTIFY");
        }
        Object pg = connection.unwrap(getNotifications.getDeclaringClass());
        try {
            getNotifications.invoke(pg, (int) Math.max(1, Math.min(Integer.MAX_VALUE, millis)));
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof SQLException sql) throw sql;
            throw SqlState.CONNECTION_EXCEPTION.exception("Waiting for NOTIFY failed: " + e.getCause(), e.getCause());
        } catch (IllegalAccessException e) {
            throw SqlState.CONNECTION_EXCEPTION.exception("Waiting for NOTIFY failed: " + e, e);
        }
    }
}
