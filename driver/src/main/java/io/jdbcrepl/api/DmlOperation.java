package io.jdbcrepl.api;

/**
 * The operation a handler is for. Prebuilt handlers take INSERT, UPDATE and DELETE; custom
 * handlers also LOB_UPDATE and DEFAULT (every operation).
 */
public enum DmlOperation {
    INSERT,
    UPDATE,
    DELETE,
    LOB_UPDATE,
    DEFAULT;

    /** Whether a prebuilt handler ({@code repl.handler.<name>.operation}) may name it. */
    public boolean isPrebuiltOperation() {
        return this == INSERT || this == UPDATE || this == DELETE;
    }
}
