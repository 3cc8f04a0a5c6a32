/**
 * The driver's public API for users' code: custom handlers (SPEC 5.4). Implement
 * {@link io.jdbcrepl.api.DmlHandler} and name the class in {@code repl.dmlhandler.<name>.class}.
 */
package io.jdbcrepl.api;
