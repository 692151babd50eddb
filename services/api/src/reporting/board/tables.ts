/**
 * The reporting board's read tables (migrations/20261127_0200_board.ts), written by the
 * `reporting-board` projector only. Areas are integer ten-thousandths of a hectare (exact sums).
 */
export interface BoardTables {
  board_growers: {
    grower_id: string;
    user_id: string;
    cluster_id: string;
    reference: string;
    plots: number;
    area_sown_e4: number;
  };
  board_plots: { plot_id: string; grower_id: string; area_sown_e4: number };
  board_wallets: {
    wallet_id: string;
    user_id: string | null;
    count_debit: number;
    total_debit: number;
    count_supplies: number;
    total_supplies: number;
    count_transfer: number;
    total_transfer: number;
  };
}
