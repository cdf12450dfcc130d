package org.topupbatch.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.topupbatch.provider.PriceListKeeper;
import org.topupbatch.provider.Product;

/**
 * Each account's last price list in tables price_list (when it was read, from which provider) and
 * price_list_product (its products in the provider's order), docs/batch-files-and-reports.md#price-list. A list is replaced
 * whole in one transaction, so a restart reads either the old list or the new one, never a mix.
 */
final class JdbcPriceLists {

    private static final String HEADER = "SELECT provider, read_at, products FROM price_list WHERE account = ?";
    private static final String PRODUCTS = """
            SELECT sku, name, brand, category, price, selling_price, available, description
            FROM price_list_product WHERE account = ? ORDER BY list_order""";
    // the header row first: on PostgreSQL its row lock makes two nodes keeping the same account's list take turns
    private static final String UPDATE_HEADER = "UPDATE price_list SET provider = ?, read_at = ?, products = ? WHERE account = ?";
    private static final String INSERT_HEADER = "INSERT INTO price_list (provider, read_at, products, account) VALUES (?, ?, ?, ?)";
    private static final String DELETE_PRODUCTS = "DELETE FROM price_list_product WHERE account = ?";
    private static final String INSERT_PRODUCT = """
            INSERT INTO price_list_product (account, list_order, sku, name, brand,
            category, price, selling_price, available, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";
    private static final int BATCH = 500;

    private final JdbcSupport jdbc;

    JdbcPriceLists(JdbcSupport jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * One account's kept list ({@code ""} for the single account). {@code provider} is where its lists
     * come from (the base URL): a list kept from another provider is not handed back.
     */
    PriceListKeeper of(String account, String provider) {
        String key = account == null ? "" : account;
        return new PriceListKeeper() {
            @Override
            public Optional<Kept> kept() {
                return read(key, provider);
            }

            @Override
            public void keep(Instant readAt, List<Product> products) {
                write(key, provider, readAt, products);
            }
        };
    }

    private Optional<PriceListKeeper.Kept> read(String account, String provider) {
        try (Connection c = jdbc.connection()) {
            // one snapshot of header and products: a list replaced meanwhile is read whole, old or new
            return JdbcSupport.readOnly(c, snapshot -> {
                snapshot.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                return kept(snapshot, account, provider);
            });
        } catch (SQLException e) {
            throw JdbcSupport.failure("cannot read the kept price list of " + shown(account), e);
        }
    }

    /** The kept list of {@code account}, header and products, if it was read from {@code provider}. */
    private static Optional<PriceListKeeper.Kept> kept(Connection c, String account, String provider) throws SQLException {
        Instant readAt;
        int expected;
        try (PreparedStatement ps = c.prepareStatement(HEADER)) {
            ps.setString(1, account);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !provider.equals(rs.getString("provider"))) {
                    return Optional.empty();
                }
                readAt = Instant.ofEpochMilli(rs.getLong("read_at"));
                expected = rs.getInt("products");
            }
        }
        List<Product> products = new ArrayList<>(expected);
        try (PreparedStatement ps = c.prepareStatement(PRODUCTS)) {
            ps.setString(1, account);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    products.add(new Product(rs.getString("sku"), rs.getString("name"), rs.getString("brand"),
                            rs.getString("category"), rs.getLong("price"), rs.getLong("selling_price"),
                            rs.getBoolean("available"), rs.getString("description")));
                }
            }
        }
        if (products.size() != expected) {
            throw new JournalException("the kept price list of " + shown(account) + " has " + products.size()
                    + " products where its header says " + expected, null);
        }
        return Optional.of(new PriceListKeeper.Kept(readAt, products));
    }

    private void write(String account, String provider, Instant readAt, List<Product> products) {
        jdbc.inTransaction(c -> {
            if (header(c, UPDATE_HEADER, account, provider, readAt, products.size()) == 0) {
                header(c, INSERT_HEADER, account, provider, readAt, products.size());
            }
            try (PreparedStatement ps = c.prepareStatement(DELETE_PRODUCTS)) {
                ps.setString(1, account);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(INSERT_PRODUCT)) {
                int order = 0;
                for (Product p : products) {
                    ps.setString(1, account);
                    ps.setInt(2, order++);
                    ps.setString(3, cut(p.sku(), 1000));
                    ps.setString(4, cut(p.name(), 1000));
                    ps.setString(5, cut(p.brand(), 1000));
                    ps.setString(6, cut(p.category(), 1000));
                    ps.setLong(7, p.price());
                    ps.setLong(8, p.sellingPrice());
                    ps.setBoolean(9, p.available());
                    ps.setString(10, cut(p.description(), 10000));
                    ps.addBatch();
                    if (order % BATCH == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
        }, "cannot keep the price list of " + shown(account));
    }

    private static int header(Connection c, String sql, String account, String provider, Instant readAt, int products)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, provider);
            ps.setLong(2, readAt.toEpochMilli());
            ps.setInt(3, products);
            ps.setString(4, account);
            return ps.executeUpdate();
        }
    }

    /** A field longer than its column (a provider's very long description) is kept cut, not refused. */
    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }

    private static String shown(String account) {
        return account.isEmpty() ? "the provider" : "account " + account;
    }
}
