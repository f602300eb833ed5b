// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Stand-in for Circle's USDC (FiatTokenV2_2 behind its proxy) on the local chain, placed
/// at the mainnet address 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48 with anvil_setCode.
/// No constructor ever runs: name, symbol, decimals and the EIP-712 domain are constants,
/// and the installer (scripts/lib/token-mocks.ts) writes the owner and the balances
/// straight into the storage slots declared below, so their order is part of the contract.
///
/// Copied from mainnet, as the shop will meet it:
///  - ERC-20 with 6 decimals, name "USD Coin", symbol "USDC"; transfer, transferFrom and
///    approve return true; a transfer beyond the balance reverts with mainnet's message.
///  - The blocklist: isBlacklisted(address); blacklist/unBlacklist (mainnet: by the
///    blacklister role, here the owner); a transfer, transferFrom or approve from or to a
///    blocked address (or by a blocked caller) reverts "Blacklistable: account is blacklisted".
///  - EIP-3009: transferWithAuthorization, receiveWithAuthorization, cancelAuthorization
///    and authorizationState, with mainnet's typehashes and EIP-712 domain (name
///    "USD Coin", version "2", the chain id, this address), computed per call as
///    FiatTokenV2_2 does; messages as mainnet's.
///  - V2_2's `bytes signature` overload of transferWithAuthorization, which the shop's
///    relay sends: a key's 65-byte signature, or a smart-contract wallet's checked by its
///    ERC-1271 isValidSignature (as V2_2's SignatureChecker does).
/// Left out: the proxy and its admin, minters and mint/burn (the installer writes
/// balances), pause, rescue, EIP-2612 permit, the other `bytes signature` overloads, the check of a signature's
/// `s` and `v` (mainnet's ECRecover refuses malleable ones), and the blacklist kept in the
/// balance's high bit (a mapping here).
contract MockUSDC {
    // Storage, slot by slot (the installer writes slots 0, 1 and 3).
    address public owner; // slot 0
    mapping(address => uint256) public balanceOf; // slot 1
    mapping(address => mapping(address => uint256)) public allowance; // slot 2
    uint256 public totalSupply; // slot 3
    mapping(address => bool) private blacklisted; // slot 4
    mapping(address => mapping(bytes32 => bool)) private usedAuthorizations; // slot 5

    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267;
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
        0xd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de8;
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        0x158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a1597429;
    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Blacklisted(address indexed _account);
    event UnBlacklisted(address indexed _account);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    modifier notBlacklisted(address account) {
        require(!blacklisted[account], "Blacklistable: account is blacklisted");
        _;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        _;
    }

    function name() external pure returns (string memory) {
        return "USD Coin";
    }

    function symbol() external pure returns (string memory) {
        return "USDC";
    }

    function decimals() external pure returns (uint8) {
        return 6;
    }

    function version() external pure returns (string memory) {
        return "2";
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(EIP712_DOMAIN_TYPEHASH, keccak256("USD Coin"), keccak256("2"), block.chainid, address(this)));
    }

    // --- ERC-20 ---

    function transfer(address to, uint256 value)
        external
        notBlacklisted(msg.sender)
        notBlacklisted(to)
        returns (bool)
    {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value)
        external
        notBlacklisted(msg.sender)
        notBlacklisted(from)
        notBlacklisted(to)
        returns (bool)
    {
        require(value <= allowance[from][msg.sender], "ERC20: transfer amount exceeds allowance");
        allowance[from][msg.sender] -= value;
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value)
        external
        notBlacklisted(msg.sender)
        notBlacklisted(spender)
        returns (bool)
    {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    // --- The blocklist ---

    function isBlacklisted(address account) external view returns (bool) {
        return blacklisted[account];
    }

    function blacklist(address account) external onlyOwner {
        blacklisted[account] = true;
        emit Blacklisted(account);
    }

    function unBlacklist(address account) external onlyOwner {
        blacklisted[account] = false;
        emit UnBlacklisted(account);
    }

    // --- EIP-3009 ---

    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return usedAuthorizations[authorizer][nonce];
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external notBlacklisted(from) notBlacklisted(to) {
        _useAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
        _transfer(from, to, value);
    }

    /// V2_2's overload: the signature as bytes, from a key or a smart-contract wallet (ERC-1271).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external notBlacklisted(from) notBlacklisted(to) {
        _useAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
        _transfer(from, to, value);
    }

    /// As transferWithAuthorization, but only the payee may submit it (no front-running).
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external notBlacklisted(from) notBlacklisted(to) {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _useAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
        _transfer(from, to, value);
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        require(!usedAuthorizations[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
        bytes32 structHash = keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce));
        require(_validSignatureNow(authorizer, _digest(structHash), abi.encodePacked(r, s, v)), "FiatTokenV2: invalid signature");
        usedAuthorizations[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _useAuthorization(
        bytes32 typehash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
        require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
        require(!usedAuthorizations[from][nonce], "FiatTokenV2: authorization is used or canceled");
        bytes32 structHash = keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce));
        require(_validSignatureNow(from, _digest(structHash), signature), "FiatTokenV2: invalid signature");
        usedAuthorizations[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
    }

    /// The EIP-712 digest of `structHash` in this token's domain.
    function _digest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    /// SignatureChecker.isValidSignatureNow: a key's 65-byte signature recovered; a contract asked by ERC-1271.
    function _validSignatureNow(address signer, bytes32 digest, bytes memory signature) private view returns (bool) {
        if (signer.code.length == 0) {
            if (signature.length != 65) return false;
            bytes32 r;
            bytes32 s;
            uint8 v;
            assembly {
                r := mload(add(signature, 0x20))
                s := mload(add(signature, 0x40))
                v := byte(0, mload(add(signature, 0x60)))
            }
            address recovered = ecrecover(digest, v, r, s);
            return recovered != address(0) && recovered == signer;
        }
        (bool ok, bytes memory answer) = signer.staticcall(abi.encodeWithSignature("isValidSignature(bytes32,bytes)", digest, signature));
        return ok && answer.length >= 32 && abi.decode(answer, (bytes4)) == bytes4(0x1626ba7e);
    }

    function _transfer(address from, address to, uint256 value) private {
        require(from != address(0), "ERC20: transfer from the zero address");
        require(to != address(0), "ERC20: transfer to the zero address");
        require(value <= balanceOf[from], "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
