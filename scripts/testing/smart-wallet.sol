// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A minimal smart-contract wallet for tests: it pays from its own balance through an
/// internal call, as Safe and ERC-4337 accounts do (the transaction's top-level
/// recipient is the wallet, not the payee), and answers ERC-1271 for messages its owner
/// signed.
contract TestSmartWallet {
    address public immutable owner;
    mapping(uint256 => bool) public usedNonces;

    constructor(address owner_) payable {
        owner = owner_;
    }

    receive() external payable {}

    /// Sends `value` of the wallet's own balance to `to` (the owner's order).
    function execute(address to, uint256 value) external {
        require(msg.sender == owner, "not the owner");
        (bool ok, ) = to.call{value: value}("");
        require(ok, "call failed");
    }

    /// Sends `value` to `to` on the owner's signature over (this wallet, to, value, nonce),
    /// whoever sends the transaction: a relayed payment, as a Safe's execTransaction.
    function executeSigned(address to, uint256 value, uint256 nonce, bytes calldata signature) external {
        require(!usedNonces[nonce], "nonce used");
        usedNonces[nonce] = true;
        bytes32 digest = keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", keccak256(abi.encodePacked(address(this), to, value, nonce))));
        require(recover(digest, signature) == owner, "not signed by the owner");
        (bool ok, ) = to.call{value: value}("");
        require(ok, "call failed");
    }

    /// Passes what it is sent straight on to `to`, in the same transaction.
    function forward(address to) external payable {
        (bool ok, ) = to.call{value: msg.value}("");
        require(ok, "call failed");
    }

    /// ERC-1271: valid when the owner signed `hash`.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return recover(hash, signature) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    function recover(bytes32 hash, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 32))
            v := byte(0, calldataload(add(signature.offset, 64)))
        }
        return ecrecover(hash, v, r, s);
    }
}
