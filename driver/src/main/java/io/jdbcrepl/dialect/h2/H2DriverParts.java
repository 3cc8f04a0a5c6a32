package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.dialect.DialectParts;

import java.util.List;

/** H2's parts that do database I/O, or need the driver module's types. */
public final class H2DriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(new H2SourceReaders(), new H2ApplySql(), new H2ApplierLocks(), new H2ApplyValues());
    }
}
