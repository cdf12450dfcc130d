package org.topupbatch.intake;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.topupbatch.text.OneLine;

/**
 * Which column of a batch file holds which field of a {@link BatchRow}, from its header line:
 * names match trimmed and in any case; ref_id, product_sku and customer_no are required, a known
 * column may appear once; any other column is an extra, kept in file order for the report.
 * Mapping a record costs what it did in one class: the row, its extras list and nothing else.
 */
final class BatchColumns {

    static final List<String> REQUIRED = List.of("ref_id", "product_sku", "customer_no");
    static final List<String> OPTIONAL = List.of("customer_no_zone", "max_price", NotifyAddress.COLUMN);

    private final List<String> headers;
    private final List<String> extraHeaders;
    private final int[] extraIndexes;
    private final int refId;
    private final int productSku;
    private final int customerNo;
    private final int customerNoZone;
    private final int maxPrice;
    private final int notifyTo;

    /** Throws {@link UnreadableBatchException} when a required column is missing or a known one repeated. */
    BatchColumns(List<String> header) {
        this.headers = List.copyOf(header);
        List<String> names = new ArrayList<>();
        for (String h : headers) {
            names.add(h.trim().toLowerCase(Locale.ROOT));
        }
        List<String> missing = new ArrayList<>();
        for (String required : REQUIRED) {
            if (!names.contains(required)) {
                missing.add(required);
            }
        }
        if (!missing.isEmpty()) {
            throw new UnreadableBatchException("header has no column " + String.join(", ", missing)
                    + " (found: " + found() + ")");
        }
        List<String> known = new ArrayList<>(REQUIRED);
        known.addAll(OPTIONAL);
        for (String name : known) {
            if (names.indexOf(name) != names.lastIndexOf(name)) {
                throw new UnreadableBatchException("header has column " + name + " more than once"
                        + " (found: " + found() + ")");
            }
        }
        this.refId = names.indexOf("ref_id");
        this.productSku = names.indexOf("product_sku");
        this.customerNo = names.indexOf("customer_no");
        this.customerNoZone = names.indexOf("customer_no_zone");
        this.maxPrice = names.indexOf("max_price");
        this.notifyTo = names.indexOf(NotifyAddress.COLUMN);
        List<String> extras = new ArrayList<>();
        List<Integer> extraIdx = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!known.contains(names.get(i))) {
                extras.add(headers.get(i));
                extraIdx.add(i);
            }
        }
        this.extraHeaders = List.copyOf(extras);
        this.extraIndexes = extraIdx.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The header's names for a message: escaped and cut, since a broken file's "header" may be anything. */
    private String found() {
        StringBuilder names = new StringBuilder();
        for (String h : headers) {
            names.append(names.length() == 0 ? "" : ", ").append(OneLine.of(h, 100));
            if (names.length() > 1_000) {
                return names + ", … (" + headers.size() + " columns)";
            }
        }
        return names.toString();
    }

    /** The header line's column names, exactly as written. */
    List<String> headers() {
        return headers;
    }

    /** Names of the columns that are not a known field, as written, in file order. */
    List<String> extraHeaders() {
        return extraHeaders;
    }

    /** The record's fields as a row; a record with more fields than columns is marked malformed. */
    BatchRow row(int seq, long line, List<String> f, char delimiter) {
        List<String> extras = new ArrayList<>(extraIndexes.length);
        for (int i : extraIndexes) {
            extras.add(i < f.size() ? f.get(i) : "");
        }
        String error = null;
        if (f.size() > headers.size()) {
            // usually a delimiter inside an unquoted value: the fields are shifted, trust none
            error = "line " + line + ": the row has " + f.size() + " fields but the header has "
                    + headers.size() + " columns (a value holding '" + delimiter + "' must be quoted)";
        }
        return new BatchRow(seq, line, field(f, refId), field(f, productSku), field(f, customerNo),
                field(f, customerNoZone), field(f, maxPrice), Collections.unmodifiableList(extras), error,
                field(f, notifyTo));
    }

    /**
     * The file's last record, without a line end and with fewer fields than the header: the file
     * looks cut short, and its last value may be cut too, so the row is rejected with what was read.
     */
    BatchRow cutShort(int seq, long line, List<String> fields) {
        BatchRow read = row(seq, line, fields, ',');
        return new BatchRow(seq, line, read.refId(), read.productSku(), read.customerNo(), read.customerNoZone(),
                read.maxPrice(), read.extras(), "line " + line + ": the file looks cut short: its last row has no line end"
                + " and only " + fields.size() + " of " + headers.size() + " fields (an interrupted export or upload?);"
                + " not ordered: send the whole file again", read.notifyTo());
    }

    /** A record that could not be parsed: a row with empty fields and the reason, so that it is reported. */
    BatchRow unparsed(int seq, CsvParseException e) {
        return new BatchRow(seq, e.line(), "", "", "", "", "", Collections.nCopies(extraHeaders.size(), ""),
                "line " + e.line() + ": " + e.getMessage());
    }

    private static String field(List<String> fields, int index) {
        return index >= 0 && index < fields.size() ? fields.get(index).trim() : "";
    }
}
