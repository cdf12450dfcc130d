package org.topupbatch.sandbox;

/**
 * The response codes ({@code rc}) the sandbox answers in the Digiflazz dialect, with the meaning and the
 * transaction status that Digiflazz's Response Code page gives them
 * (https://developer.digiflazz.com/api/buyer/response-code). Codes the sandbox cannot produce are left out.
 * Two codes are marked unverified in docs/digiflazz.md: the stored copy of that page broke off at rc 62, so
 * their numbers could not be checked against it.
 */
enum DigiflazzRc {
    SUCCESS("00", "Transaksi Sukses", DigiflazzRc.SUKSES),
    FAILED("02", "Transaksi Gagal", DigiflazzRc.GAGAL),
    PENDING("03", "Transaksi Pending", DigiflazzRc.PENDING_STATUS),
    PAYLOAD_ERROR("40", "Payload Error", DigiflazzRc.GAGAL),
    SIGNATURE_INVALID("41", "Signature tidak valid", DigiflazzRc.GAGAL),
    /** The page's note: the username does not match. */
    BUYER_API_REFUSED("42", "Gagal memproses API Buyer", DigiflazzRc.GAGAL),
    SKU_NOT_FOUND_OR_INACTIVE("43", "SKU tidak di temukan atau Non-Aktif", DigiflazzRc.GAGAL),
    BALANCE_INSUFFICIENT("44", "Saldo tidak cukup", DigiflazzRc.GAGAL),
    IP_NOT_RECOGNISED("45", "IP Anda tidak kami kenali", DigiflazzRc.GAGAL),
    REF_ID_NOT_UNIQUE("49", "Ref ID tidak unik", DigiflazzRc.GAGAL),
    DESTINATION_WRONG("54", "Nomor Tujuan Salah", DigiflazzRc.GAGAL),
    /** Unverified number (see the class comment); the reason itself is on https://developer.digiflazz.com/alasan-gagal. */
    PRICE_ABOVE_MAX("69", "Harga seller lebih besar dari ketentuan harga Buyer", DigiflazzRc.GAGAL),
    /**
     * Unverified number (see the class comment); copies of the page's table in public client libraries give
     * it, with the note that a price list of every product may be asked at most once every 5 minutes.
     */
    PRICE_LIST_LIMITED("83", "Anda telah mencapai limitasi pengecekan pricelist, silahkan coba beberapa saat lagi",
            DigiflazzRc.GAGAL),
    /** Unverified number (see the class comment). */
    RATE_LIMITED("85", "Limitasi transaksi, coba beberapa saat lagi", DigiflazzRc.GAGAL);

    static final String SUKSES = "Sukses";
    static final String GAGAL = "Gagal";
    static final String PENDING_STATUS = "Pending";

    private final String code;
    private final String meaning;
    private final String status;

    DigiflazzRc(String code, String meaning, String status) {
        this.code = code;
        this.meaning = meaning;
        this.status = status;
    }

    String code() {
        return code;
    }

    /** The page's meaning of the code: the {@code message} the sandbox answers with it. */
    String meaning() {
        return meaning;
    }

    /** {@code Sukses}, {@code Pending} or {@code Gagal}, as the page's status column. */
    String status() {
        return status;
    }

    /** The code of an order as the shared order desk keeps it. */
    static DigiflazzRc of(SandboxOrders.OrderView view) {
        switch (view.entry().status()) {
            case "success": return SUCCESS;
            case "pending": return PENDING;
            default:
                String reason = view.failReason();
                // a refused customer_no and the 0000 rule both say the destination is wrong; anything else is a plain failure
                if (reason != null && (reason.startsWith(SandboxOrders.FAIL_CUSTOMER_REFUSED)
                        || reason.equals(SandboxOrders.FAIL_CUSTOMER_NOT_FOUND))) {
                    return DESTINATION_WRONG;
                }
                return FAILED;
        }
    }
}
