package org.topupbatch.provider;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.topupbatch.settings.SettingsException;

/**
 * The product map ({@code topup.product-map}, docs/accounts-and-dialects.md#several-accounts): which account sells a
 * reseller's product code under which SKU, in which order of preference, and whether the order or the
 * price decides. A CSV file with the header {@code product,provider,sku} and an optional
 * {@code routing} column; the lines of one product, in file order, are its order of preference.
 *
 * <p>A product the map does not name is sold under its own code by every account, in the order of
 * topup.providers: an operator maps only the products whose codes differ or whose order matters.
 */
public final class ProductMap {

    /** How the candidates of a product are ranked. */
    public enum Rule {
        /** The map's order: the first account that has it available within max_price. */
        ORDERED,
        /** The lowest price among the accounts that have it available within max_price; ties go to the map's order. */
        CHEAPEST;

        public String shown() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One account's SKU for a product. */
    public record Listing(String account, String sku) {
    }

    /** A product's accounts in order of preference, and its rule. */
    public record Route(String product, Rule rule, List<Listing> listings) {
        public Route {
            listings = List.copyOf(listings);
        }
    }

    static final List<String> COLUMNS = List.of("product", "provider", "sku", "routing");
    private static final String KEY = "topup.product-map";

    private final List<String> accounts;
    private final Map<String, Route> routes;

    private ProductMap(List<String> accounts, Map<String, Route> routes) {
        // the unnamed account of topup.base-url is listed as null: a list of one that holds it
        this.accounts = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(accounts));
        this.routes = routes;
    }

    /** No file: every product under its own code at every account, in the accounts' order. */
    public static ProductMap identity(List<String> accounts) {
        return new ProductMap(accounts, Map.of());
    }

    /** The route of a product code as it appears in a batch's product_sku column. */
    public Route routeFor(String product) {
        Route mapped = routes.get(product);
        if (mapped != null) {
            return mapped;
        }
        return new Route(product, Rule.ORDERED, accounts.stream().map(a -> new Listing(a, product)).toList());
    }

    /** The account names, in topup.providers order. */
    public List<String> accounts() {
        return accounts;
    }

    /** How many products the file names. */
    public int mappedProducts() {
        return routes.size();
    }

    /**
     * Reads the file (UTF-8; a byte-order mark is skipped); each bad line stops with one line naming
     * {@code file:line} and the field.
     *
     * @param accounts the names of topup.providers, in order
     * @throws SettingsException naming the setting, the file and line, and the field
     */
    public static ProductMap load(Path file, List<String> accounts) {
        String name = file.toString();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(in, name, accounts);
        } catch (NoSuchFileException e) {
            throw new SettingsException(KEY + ": " + name + ": no such file");
        } catch (CharacterCodingException e) {
            throw new SettingsException(KEY + ": " + name + ": not UTF-8 text");
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new SettingsException(KEY + ": " + name + ": cannot be read: " + e.getMessage());
        }
    }

    /** As {@link #load}, from text; {@code name} names it in messages. */
    static ProductMap parse(Reader text, String name, List<String> accounts) throws IOException {
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true)
                .setIgnoreEmptyLines(true).setTrim(true).setAllowMissingColumnNames(true).get();
        Reader withoutMark = skipByteOrderMark(text);
        CSVParser parser;
        try {
            parser = format.parse(withoutMark);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new SettingsException(KEY + ": " + name + ":1: the header cannot be read: " + e.getMessage());
        }
        try (parser) {
            Map<String, Integer> columns = columns(parser.getHeaderNames(), name);
            Map<String, Builder> products = new LinkedHashMap<>();
            java.util.Iterator<CSVRecord> records = parser.iterator();
            while (true) {
                CSVRecord record;
                try {
                    if (!records.hasNext()) {
                        break;
                    }
                    record = records.next();
                } catch (java.io.UncheckedIOException | IllegalStateException e) {
                    throw new SettingsException(KEY + ": " + name + ":" + (parser.getCurrentLineNumber() + 1)
                            + ": not CSV: " + org.topupbatch.text.OneLine.of(e.getMessage(), 200));
                }
                long line = startLine(record, parser.getCurrentLineNumber());
                String where = KEY + ": " + name + ":" + line + ": ";
                String product = field(record, columns.get("product"));
                String account = field(record, columns.get("provider"));
                String sku = field(record, columns.get("sku"));
                String routing = columns.containsKey("routing") ? field(record, columns.get("routing")) : "";
                if (product.isEmpty()) {
                    throw new SettingsException(where + "product is empty");
                }
                if (account.isEmpty()) {
                    throw new SettingsException(where + "provider is empty");
                }
                if (!accounts.contains(account)) {
                    throw new SettingsException(where + "provider '" + shown(account) + "' is not an account of topup.providers ("
                            + String.join(", ", accounts) + ")");
                }
                if (sku.isEmpty()) {
                    throw new SettingsException(where + "sku is empty");
                }
                Rule rule = null;
                if (!routing.isEmpty()) {
                    rule = switch (routing.toLowerCase(Locale.ROOT)) {
                        case "ordered" -> Rule.ORDERED;
                        case "cheapest" -> Rule.CHEAPEST;
                        default -> throw new SettingsException(where + "routing '" + shown(routing)
                                + "' is neither ordered nor cheapest");
                    };
                }
                products.computeIfAbsent(product, Builder::new).add(where, line, account, sku, rule);
            }
            Map<String, Route> routes = new HashMap<>();
            products.forEach((product, b) -> routes.put(product, b.route()));
            return new ProductMap(accounts, routes);
        }
    }

    /** The lines of one product as they are read. */
    private static final class Builder {
        private final String product;
        private final List<Listing> listings = new ArrayList<>();
        private final Map<String, Long> lineOfAccount = new HashMap<>();
        private Rule rule;
        private long ruleLine;

        Builder(String product) {
            this.product = product;
        }

        void add(String where, long line, String account, String sku, Rule said) {
            Long earlier = lineOfAccount.putIfAbsent(account, line);
            if (earlier != null) {
                throw new SettingsException(where + "provider '" + account + "' is named for product '" + shown(product)
                        + "' on line " + earlier + " already");
            }
            if (said != null) {
                // a rule said on one line holds for the product; lines that say nothing follow it
                if (rule != null && rule != said) {
                    throw new SettingsException(where + "routing '" + said.shown() + "' disagrees with '" + rule.shown()
                            + "' on line " + ruleLine + " for product '" + shown(product) + "' (one rule per product)");
                }
                rule = said;
                ruleLine = line;
            }
            listings.add(new Listing(account, sku));
        }

        Route route() {
            return new Route(product, rule == null ? Rule.ORDERED : rule, listings);
        }
    }

    private static Map<String, Integer> columns(List<String> header, String name) {
        Map<String, Integer> columns = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            String column = header.get(i) == null ? "" : header.get(i).trim().toLowerCase(Locale.ROOT);
            if (!COLUMNS.contains(column)) {
                throw new SettingsException(KEY + ": " + name + ":1: column '" + shown(column)
                        + "' is not one of product, provider, sku, routing");
            }
            if (columns.putIfAbsent(column, i) != null) {
                throw new SettingsException(KEY + ": " + name + ":1: column '" + column + "' appears twice");
            }
        }
        for (String required : COLUMNS.subList(0, 3)) {
            if (!columns.containsKey(required)) {
                throw new SettingsException(KEY + ": " + name + ":1: the header has no '" + required
                        + "' column (it must be product,provider,sku and may add routing)");
            }
        }
        return columns;
    }

    private static String field(CSVRecord record, int column) {
        return column < record.size() ? record.get(column).trim() : "";
    }

    /** The line a record starts on: the parser stands at its last line, less the line breaks quoted inside it. */
    private static long startLine(CSVRecord record, long endLine) {
        long breaks = 0;
        for (String value : record) {
            breaks += value.chars().filter(c -> c == '\n').count();
        }
        return endLine - breaks;
    }

    private static String shown(String value) {
        return org.topupbatch.text.OneLine.of(value, 60);
    }

    private static Reader skipByteOrderMark(Reader in) throws IOException {
        java.io.PushbackReader pushback = new java.io.PushbackReader(in, 1);
        int first = pushback.read();
        if (first != -1 && first != '\uFEFF') {
            pushback.unread(first);
        }
        return pushback;
    }
}
