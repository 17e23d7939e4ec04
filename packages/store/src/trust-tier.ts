/** Who is asking, as far as tools are concerned: owner (an admin), trusted (allowed DM peer, configured group), guest. */
export type TrustTier = "owner" | "trusted" | "guest";
