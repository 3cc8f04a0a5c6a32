package io.jdbcrepl.config;

import io.jdbcrepl.api.DmlOperation;

import java.util.Objects;

/**
 * A custom handler, {@code repl.dmlhandler.<name>.*} (SPEC 5.4). The class is only named here; it
 * is loaded by the apply side.
 *
 * @param name the handler's name (the middle of its keys)
 * @param table the table it is for
 * @param operation the operation, DEFAULT for all
 * @param className the handler class's binary name
 * @param errorHandler true: called only for errors the prebuilt handlers did not resolve
 */
public record DmlHandlerDefinition(String name, TableName table, DmlOperation operation, String className,
        boolean errorHandler) {

    public DmlHandlerDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(className, "className");
    }
}
