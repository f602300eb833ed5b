// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ISignedWallet {
    function executeSigned(address to, uint256 value, uint256 nonce, bytes calldata signature) external;
}

/// An attacker's contract for tests: in one transaction it pays the shop a little itself
/// and then relays another wallet's owner-signed payment (anyone may relay one, as
/// anyone may relay a Safe's execTransaction or bundle a user operation). It answers
/// ERC-1271 for messages its own owner signed, so it can "sign" a claim.
contract BatchRelayer {
    address public immutable owner;

    constructor() {
        owner = msg.sender;
    }

    receive() external payable {}

    function payAndRelay(address shop, address wallet, address to, uint256 value, uint256 nonce, bytes calldata signature) external payable {
        (bool ok, ) = shop.call{value: msg.value}("");
        require(ok, "own payment failed");
        ISignedWallet(wallet).executeSigned(to, value, nonce, signature);
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 32))
            v := byte(0, calldataload(add(signature.offset, 64)))
        }
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
