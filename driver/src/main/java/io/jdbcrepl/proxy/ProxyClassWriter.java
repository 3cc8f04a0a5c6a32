package io.jdbcrepl.proxy;

import net.bytebuddy.dynamic.DynamicType;

import java.io.File;
import java.io.IOException;
import java.util.List;

/**
 * Writes the proxy classes into the build's classes directory (Maven's process-classes phase), so
 * that the driver loads them like any other class instead of generating them at the first connect.
 */
public final class ProxyClassWriter {

    private ProxyClassWriter() {
    }

    /** {@code args[0]}: the classes directory. */
    public static void main(String[] args) throws IOException {
        File classes = new File(args[0]);
        List<Class<?>> bases = List.of(ConnectionProxy.class, StatementProxy.class, PreparedStatementProxy.class,
                CallableStatementProxy.class, ResultSetProxy.class, DatabaseMetaDataProxy.class);
        for (Class<?> base : bases) {
            write(base, false, classes);
            if (base == PreparedStatementProxy.class || base == CallableStatementProxy.class) write(base, true, classes);
        }
    }

    private static void write(Class<?> base, boolean recording, File classes) throws IOException {
        try (DynamicType.Unloaded<?> unloaded = ProxyFactory.generate(base, recording)) {
            unloaded.saveIn(classes);
        }
    }
}
