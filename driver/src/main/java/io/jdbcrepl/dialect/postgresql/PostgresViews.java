package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.capture.session.CaptureSession;
import io.jdbcrepl.capture.session.StagedLoad;
import io.jdbcrepl.capture.session.UnwrapViews;
import io.jdbcrepl.sql.SqlClassifier;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Wrapper;

/**
 * What {@code unwrap(PGConnection.class)} and {@code unwrap(BaseConnection.class)} hand out on a capturing
 * PostgreSQL connection: a view of pgjdbc's connection in which COPY … FROM into a replicated table is
 * captured ({@link StagedLoad}) whichever way it is started: {@code getCopyAPI()}, {@code new
 * CopyManager(view)} (Flyway's way) or {@code PGCopyOutputStream}. Its {@code java.sql.Connection} methods
 * are the application's connection (captured); every other pgjdbc method is pgjdbc's own.
 * <p>
 * Everything here goes through reflection against the interfaces' own class loader: no class of the
 * driver links against pgjdbc, which a MariaDB or H2 user does not have, and which may live in a class
 * loader this driver cannot see.
 */
final class PostgresViews implements UnwrapViews.Views {

    private final CaptureSession session;
    private final Connection raw;
    private Object view;

    PostgresViews(CaptureSession session, Connection raw) {
        this.session = session;
        this.raw = raw;
    }

    /** The view for {@code iface} (PGConnection, BaseConnection), or null to hand out the real connection. */
    @Override
    public Object view(Class<?> iface, Connection application) throws SQLException {
        if (!iface.isInterface() || !iface.getName().startsWith("org.postgresql.")) return null;
        Class<?> base = load("org.postgresql.core.BaseConnection", iface.getClassLoader());
        if (base == null || !iface.isAssignableFrom(base) || !base.isInstance(raw)) return null;
        if (view == null) {
            ClassLoader loader = base.getClassLoader();
            view = Proxy.newProxyInstance(loader, new Class<?>[] {base}, new ConnectionView(application, loader));
        }
        return view;
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** Calls {@code method} on {@code target}, with the target's own exception. */
    private static Object call(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Object objectMethod(Object proxy, Method method, Object[] args, Object wrapped) {
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            default -> "jdbc:repl capturing view of " + wrapped;
        };
    }

    /** BaseConnection: JDBC to the application's connection, the copy API and executor capturing, the rest pgjdbc's. */
    private final class ConnectionView implements InvocationHandler {

        private final Connection application;
        private final ClassLoader loader;
        private Object copyApi;
        private Object executor;

        ConnectionView(Connection application, ClassLoader loader) {
            this.application = application;
            this.loader = loader;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Class<?> declaring = method.getDeclaringClass();
            if (declaring == Object.class) return objectMethod(proxy, method, args, raw);
            if (declaring == Connection.class || declaring == Wrapper.class) return call(method, application, args);
            int arity = method.getParameterCount();
            switch (method.getName()) {
                case "getCopyAPI" -> {
                    if (arity == 0) return copyApi(proxy);
                }
                case "getQueryExecutor" -> {
                    if (arity == 0) return executor(call(method, raw, args));
                }
                case "execSQLUpdate", "execSQLQuery" -> {
                    if (args != null && args[0] instanceof String sql && SqlClassifier.mayChangeRows(sql)) {
                        return execute(method.getName().equals("execSQLQuery"), sql, args);
                    }
                }
                default -> { }
            }
            return call(method, raw, args);
        }

        /** pgjdbc's own CopyManager over this view: its COPY goes through {@link #executor}. */
        private Object copyApi(Object proxy) throws Throwable {
            if (copyApi == null) {
                Class<?> base = load("org.postgresql.core.BaseConnection", loader);
                Class<?> manager = load("org.postgresql.copy.CopyManager", loader);
                try {
                    copyApi = manager.getConstructor(base).newInstance(proxy);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
            return copyApi;
        }

        private Object executor(Object rawExecutor) {
            if (executor == null) {
                Class<?> type = load("org.postgresql.core.QueryExecutor", loader);
                executor = Proxy.newProxyInstance(loader, new Class<?>[] {type},
                        new ExecutorView(rawExecutor, application, loader));
            }
            return executor;
        }

        /** pgjdbc's internal execSQL* with SQL that may change rows: run through the application's connection. */
        private Object execute(boolean query, String sql, Object[] args) throws SQLException {
            if (!query) {
                try (Statement s = application.createStatement()) {
                    s.execute(sql);
                }
                return null;
            }
            Statement s = args.length == 3 ? application.createStatement((Integer) args[1], (Integer) args[2])
                    : application.createStatement();
            try {
                ResultSet rs = s.executeQuery(sql);
                s.closeOnCompletion();
                return rs;
            } catch (SQLException | RuntimeException e) {
                s.close();
                throw e;
            }
        }
    }

    /** QueryExecutor: {@code startCopy} of a COPY … FROM into a replicated table is staged; the rest pgjdbc's. */
    private final class ExecutorView implements InvocationHandler {

        private final Object rawExecutor;
        private final Connection application;
        private final ClassLoader loader;

        ExecutorView(Object rawExecutor, Connection application, ClassLoader loader) {
            this.rawExecutor = rawExecutor;
            this.application = application;
            this.loader = loader;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getDeclaringClass() == Object.class) return objectMethod(proxy, method, args, rawExecutor);
            if (!method.getName().equals("startCopy") || method.getParameterCount() != 2 || !(args[0] instanceof String sql)) {
                return call(method, rawExecutor, args);
            }
            StagedLoad load = session.stageLoad(sql, application);
            if (load == null) return call(method, rawExecutor, args);
            Object copy;
            try {
                copy = call(method, rawExecutor, new Object[] {load.loadSql(), args[1]});
            } catch (Throwable e) {
                load.abandon(e);
                throw e;
            }
            Class<?> copyIn = load("org.postgresql.copy.CopyIn", loader);
            if (!copyIn.isInstance(copy)) return copy; // not a COPY … FROM after all: pgjdbc's caller refuses it
            return Proxy.newProxyInstance(loader, new Class<?>[] {copyIn}, new StagedCopyIn(copy, load));
        }
    }

    /** CopyIn of the staging table: its end inserts the staged rows, captured, and counts them. */
    private static final class StagedCopyIn implements InvocationHandler {

        private final Object rawCopy;
        private final StagedLoad load;
        private long inserted = -1;

        StagedCopyIn(Object rawCopy, StagedLoad load) {
            this.rawCopy = rawCopy;
            this.load = load;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getDeclaringClass() == Object.class) return objectMethod(proxy, method, args, rawCopy);
            switch (method.getName()) {
                case "endCopy" -> {
                    try {
                        call(method, rawCopy, args);
                    } catch (Throwable e) {
                        load.abandon(e);
                        throw e;
                    }
                    inserted = load.finish();
                    return inserted;
                }
                case "cancelCopy" -> {
                    try {
                        return call(method, rawCopy, args);
                    } finally {
                        load.abandon(null);
                    }
                }
                case "getHandledRowCount" -> {
                    if (inserted >= 0) return inserted;
                }
                default -> { }
            }
            return call(method, rawCopy, args);
        }
    }
}
