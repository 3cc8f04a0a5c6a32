/**
 * The driver's public API for users' code: the admin API ({@link io.jdbcrepl.api.ReplAdmin}, from
 * {@code connection.unwrap(ReplAdmin.class)}, with {@link io.jdbcrepl.api.NodeStatus},
 * {@link io.jdbcrepl.api.PeerStatus} and {@link io.jdbcrepl.api.ErrorEntry}) and custom handlers (SPEC 5.4). Implement
 * {@link io.jdbcrepl.api.DmlHandler} and name the class in {@code repl.dmlhandler.<name>.class};
 * everything a handler sees is here ({@link io.jdbcrepl.api.DmlContext}, the
 * {@link io.jdbcrepl.api.Conflict} and its types, {@link io.jdbcrepl.api.ConflictException}) or in
 * {@code io.jdbcrepl.lcr} (the LCR and its values). It needs nothing internal (ArchitectureTest).
 */
package io.jdbcrepl.api;
